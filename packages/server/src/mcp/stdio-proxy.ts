import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { mcpInstructions, mcpServerInfo } from './server.js';

/**
 * How long a tool call may take upstream: `ask` on a CPU model may take minutes, and the SDK's
 * default (60 s) would cut it; the desktop client keeps its own limit and cancels through us.
 */
const callTimeoutMs = 60 * 60_000;

export interface StdioProxyOptions {
  /** DocQA's base URL, such as https://docqa.example.com (a path prefix is kept). */
  url: string;
  /** An API key (docqa_…) or an access token. */
  key: string;
  version: string;
  /** Diagnostics; stdout belongs to the protocol. */
  log(line: string): void;
}

/** The HTTP endpoint under a base URL: `https://host/prefix` → `https://host/prefix/api/mcp`. */
export function mcpEndpoint(base: string): URL {
  return new URL('api/mcp', base.endsWith('/') ? base : `${base}/`);
}

/**
 * The DocQA server at `url`, connected on first use and again after a failed connection, so a
 * desktop client that starts before DocQA (or outlives a restart of it) recovers by itself. The
 * endpoint is stateless: a connection is only the protocol's handshake, nothing on the server.
 */
class Upstream {
  #client: Promise<Client> | null = null;

  constructor(private readonly options: StdioProxyOptions) {}

  client(): Promise<Client> {
    this.#client ??= this.#connect().catch((error: unknown) => {
      this.#client = null;
      throw error;
    });
    return this.#client;
  }

  async #connect(): Promise<Client> {
    const headers = { authorization: `Bearer ${this.options.key}` };
    const transport = new StreamableHTTPClientTransport(mcpEndpoint(this.options.url), { requestInit: { headers } });
    const client = new Client({ name: 'docqa-mcp-stdio', version: this.options.version });
    await client.connect(transport as Transport);
    return client;
  }

  /** What went wrong reaching DocQA, as a sentence for the user: the server's own `detail` when it sent one. */
  describe(error: unknown): string {
    const where = `DocQA at ${this.options.url}`;
    if (error instanceof StreamableHTTPError) {
      const detail = /\{.*"detail"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(error.message)?.[1];
      const said = detail ? (JSON.parse(`"${detail}"`) as string) : error.message;
      return `${where} answered ${error.code ?? 'an error'}: ${said}`;
    }
    if (error instanceof McpError) return error.message;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `${where} could not be reached: ${(error as Error).message}${cause ? ` (${cause})` : ''}`;
  }
}

/**
 * `docqa mcp`: an MCP server on stdin and stdout for desktop clients that start their servers as
 * commands, forwarding every request to the HTTP endpoint of a DocQA server with the given key.
 * It needs no database and holds no state: the tools, their checks and their answers are the
 * server's. Resolves when stdin closes.
 */
export async function runStdioProxy(options: StdioProxyOptions, transport: Transport): Promise<void> {
  const upstream = new Upstream(options);
  const server = new Server(
    { ...mcpServerInfo, version: options.version },
    { capabilities: { tools: {}, resources: {} }, instructions: mcpInstructions },
  );
  const forward = async <T>(call: (client: Client) => Promise<T>): Promise<T> => {
    try {
      return await call(await upstream.client());
    } catch (error) {
      if (error instanceof McpError) throw error;
      throw new McpError(ErrorCode.InternalError, upstream.describe(error));
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    forward((client) => client.listTools(request.params, { signal: extra.signal })),
  );
  // A tool that cannot run answers as the server's tools do: a result the model reads, with the reason.
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    try {
      const client = await upstream.client();
      return (await client.callTool(request.params, undefined, {
        signal: extra.signal,
        timeout: callTimeoutMs,
      })) as CallToolResult;
    } catch (error) {
      options.log(`docqa mcp: ${request.params.name}: ${upstream.describe(error)}`);
      return { isError: true, content: [{ type: 'text', text: upstream.describe(error) }] };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    forward((client) => client.listResources(request.params, { signal: extra.signal })),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
    forward((client) => client.listResourceTemplates(request.params, { signal: extra.signal })),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    forward((client) => client.readResource(request.params, { signal: extra.signal })),
  );
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(transport);
  // Check the URL and key at once, so a mistake shows in the client's log before the first question.
  upstream.client().then(
    () => options.log(`docqa mcp: connected to ${mcpEndpoint(options.url).href}`),
    (error: unknown) => options.log(`docqa mcp: ${upstream.describe(error)}`),
  );
  await closed;
}
