import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DocqaError, type Logger } from '@docqa/plugin-api';
import type { McpCapability, McpContext } from './context.js';
import { createMcpServer } from './server.js';

/** Every line logged, to tell that a refusal is not logged as a failure. */
function recordingLogger(lines: string[]): Logger {
  const record = (level: string) => (obj: object | string, msg?: string) => {
    lines.push(`${level} ${msg ?? String(obj)}`);
  };
  const logger: Logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => logger,
  };
  return logger;
}

/**
 * The order of a tool call's checks, through the SDK's own client over its in-memory transport: the
 * gate of the tool's REST endpoint before its arguments, as every REST endpoint checks auth, role,
 * scope and plan before the body. The gate here refuses as one with a plan or role the caller lacks
 * would; no tool runs (the services are not there), as none may before its gate and arguments pass.
 */
describe('MCP tools: the access check comes before the arguments are validated', () => {
  const asked: McpCapability[] = [];
  const lines: string[] = [];
  let allowed = false;

  async function connect(): Promise<Client> {
    const context: McpContext = {
      services: {} as McpContext['services'],
      db: {} as McpContext['db'],
      logger: recordingLogger(lines),
      principal: { userId: '00000000-0000-4000-8000-000000000001', username: 'vera', role: 'viewer' },
      clientIp: '127.0.0.1',
      authorize: (capability) => {
        asked.push(capability);
        if (allowed) return Promise.resolve();
        return Promise.reject(new DocqaError('plan_required', 'This feature needs the ENTERPRISE plan or higher.'));
      },
    };
    const server = createMcpServer(context, '0.0.0-test');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'tools-test', version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  }
  const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

  beforeEach(() => {
    asked.length = 0;
    lines.length = 0;
    allowed = false;
  });

  it('refuses a caller without access before it says anything of the arguments', async () => {
    const client = await connect();
    for (const [name, args] of [
      ['search', { query: '   ', top_k: 1000 }],
      ['ask', { question: 42 }],
      ['list_documents', { source: 'mailbox' }],
      ['get_document', { id: 'not-a-uuid', page: 0 }],
      ['search', {}],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, name).to.equal(true);
      expect(text(result), name).to.equal('This feature needs the ENTERPRISE plan or higher. [plan_required]');
    }
    expect(asked).to.deep.equal(['search', 'ask', 'list_documents', 'get_document', 'search']);
    expect(lines.filter((line) => line.startsWith('error'))).to.deep.equal([]);
    await client.close();
  });

  it('validates the arguments of a caller with access, naming each field', async () => {
    allowed = true;
    const client = await connect();
    const result = await client.callTool({ name: 'search', arguments: { query: '   ', top_k: 1000 } });
    expect(text(result)).to.match(
      /^Invalid arguments for tool search \(query must not be empty; top_k .+\) \[validation_failed\]$/,
    );
    const missing = await client.callTool({ name: 'get_document', arguments: {} });
    expect(text(missing)).to.match(/^Invalid arguments for tool get_document \(id .+\) \[validation_failed\]$/);
    expect(asked).to.deep.equal(['search', 'get_document']);
    await client.close();
  });

  it('answers an unknown tool as a tool error naming the tools, and lists the tools with their schemas', async () => {
    const client = await connect();
    expect(text(await client.callTool({ name: 'delete_everything', arguments: {} }))).to.equal(
      'There is no tool delete_everything; the tools are search, ask, list_documents, get_document. [not_found]',
    );
    expect(asked).to.deep.equal([]);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'search')?.inputSchema.required).to.deep.equal(['query']);
    await client.close();
  });
});
