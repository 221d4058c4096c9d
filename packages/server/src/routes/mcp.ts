import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { checkAccess, requiredKeyScope, type Authenticator } from '../http/access.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { readBuildInfo } from '../build-info.js';
import type { McpCapability } from '../mcp/context.js';
import { chatRoutes } from './chat.js';
import { documentRoutes } from './documents.js';
import { searchRoutes } from './search.js';
import { chatTokens } from '@docqa/core/chat';
import { documentsTokens } from '@docqa/core/documents';
import { searchTokens } from '@docqa/core/search';

const byOperation = (routes: readonly AnyRoute[], operationId: string): AnyRoute => {
  const route = routes.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new DocqaError('internal', `No route ${operationId} to gate an MCP tool with.`);
  return route;
};

/**
 * Each tool and resource is gated by the REST endpoint that does the same thing: the same role,
 * API key scope and plan, so MCP can never reach further than the REST API, and a plan or scope
 * given to an endpoint later applies to its tool too.
 */
const gates: Record<McpCapability, AnyRoute> = {
  search: byOperation(searchRoutes, 'search'),
  ask: byOperation(chatRoutes, 'chat'),
  list_documents: byOperation(documentRoutes, 'listDocuments'),
  get_document: byOperation(documentRoutes, 'getDocument'),
};

/**
 * The MCP SDK and DocQA's server on it, loaded by the first MCP request: they hold about 30 MB of
 * resident memory, which a deployment that never speaks MCP (most) should not pay for.
 */
let mcpLibrary:
  | Promise<[typeof import('../mcp/server.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]>
  | undefined;
const loadMcpLibrary = () =>
  (mcpLibrary ??= Promise.all([
    import('../mcp/server.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]));

/** Read once: build-info reads files, and every MCP request names the version. */
let version: string | undefined;

const jsonRpcId = z.union([z.string(), z.number().int()]);
const jsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});
const jsonRpcBody = z
  .union([jsonRpcMessage, z.array(jsonRpcMessage).min(1)])
  .describe('A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, …).');
const jsonRpcAnswer = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.number().int(), message: z.string() }).optional(),
});

type JsonRpcBody = z.output<typeof jsonRpcBody>;

/**
 * `ask` may take minutes on a CPU model, and a proxy closes a response that stays silent (nginx
 * after 60 s): its answer comes as an event stream of the same POST, with a comment every 15 s
 * until the answer, as POST /api/chat streams. Everything else answers at once, as plain JSON.
 */
function answersSlowly(body: JsonRpcBody): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => message.method === 'tools/call' && message.params?.name === 'ask');
}

export const mcpRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/mcp',
    access: 'required',
    // Every tool reads; each is checked again against its REST endpoint's gate when called.
    keyScope: 'read',
    tag: 'MCP',
    operationId: 'mcp',
    summary: 'The Model Context Protocol server (Streamable HTTP, stateless)',
    description: [
      'MCP over Streamable HTTP in stateless mode: each POST carries one JSON-RPC message and is answered',
      'in its response (send `Accept: application/json, text/event-stream`): JSON, except a call of `ask`,',
      'answered as an event stream with keep-alive comments. There is no session and no GET stream, so any',
      'replica answers any request. Tools: `search`, `ask`, `list_documents`, `get_document`;',
      'resources `docqa://documents/{id}`. Every request is authenticated (an API key with the read scope, or',
      "an access token); each tool also needs what its REST endpoint needs, and sees only the caller's",
      'documents. A tool that fails answers a tool result with `isError` and the reason. See docs/api-access.md.',
    ].join(' '),
    request: { body: jsonRpcBody },
    responses: {
      200: {
        description: 'The JSON-RPC response (a call of `ask`: one `message` event of it, text/event-stream).',
        schema: jsonRpcAnswer,
      },
      202: { description: 'A notification or a response from the client, accepted.' },
      406: { description: 'The Accept header lacks application/json or text/event-stream (a JSON-RPC error).' },
    },
    deps: { search: searchTokens.service, chat: chatTokens.service, documents: documentsTokens.service },
    async handler({ kernel, deps, principal, body, req, res }) {
      const caller = principal!;
      // The principal this request authenticated as, through the same checks as the REST routes.
      const known: Authenticator = { authenticate: () => Promise.resolve(caller) };
      const authorize = async (capability: McpCapability) => {
        const gate = gates[capability];
        await checkAccess(kernel, known, req, res, gate.access, gate.plan, requiredKeyScope(gate));
      };
      const logger = kernel.logger.child({ component: 'mcp' });
      const context = { services: deps, db: kernel.db, logger, principal: caller, clientIp: req.ip ?? null, authorize };
      const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadMcpLibrary();
      const server = createMcpServer(context, (version ??= readBuildInfo().version));
      const slow = answersSlowly(body);
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: !slow });
      // nginx would otherwise hold the keep-alive comments back from the client.
      if (slow) res.setHeader('X-Accel-Buffering', 'no');
      // Closing aborts a tool still running (the client went away) and frees the server.
      res.on('close', () => {
        server.close().catch((error: unknown) => logger.warn({ err: error }, 'MCP server did not close'));
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return 'handled' as const;
    },
  }),
];
