import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readBuildInfo } from '../build-info.js';
import { runStdioProxy } from '../mcp/stdio-proxy.js';

export const mcpUsage = `Usage: docqa mcp [--url <DocQA URL>] [--key <API key>]

  An MCP server on stdin/stdout for desktop clients, forwarding to the MCP endpoint
  (/api/mcp) of the DocQA server at --url (or DOCQA_URL) with the API key --key (or,
  better, since a command line is visible to other users, DOCQA_API_KEY).
`;

export interface McpCliIo {
  env: Record<string, string | undefined>;
  err(line: string): void;
}

/** `docqa mcp`: stdout carries the protocol and nothing else; every message of ours goes to stderr. */
export async function runMcpCommand(argv: string[], io: McpCliIo): Promise<number> {
  let values: { url?: string | undefined; key?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { url: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    io.err(`docqa mcp: ${(error as Error).message}\n${mcpUsage}`);
    return 2;
  }
  if (values.help) {
    io.err(mcpUsage);
    return 0;
  }
  const url = values.url ?? io.env.DOCQA_URL;
  const key = values.key ?? io.env.DOCQA_API_KEY;
  if (!url || !key) {
    io.err(`docqa mcp: give the server's URL and an API key (--url and --key, or DOCQA_URL and DOCQA_API_KEY).`);
    return 2;
  }
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    io.err(`docqa mcp: --url must be an http(s) URL such as https://docqa.example.com, not "${url}".`);
    return 2;
  }
  // A library that logs with console.log would corrupt the protocol: such lines go to stderr.
  for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;
  const transport = new StdioServerTransport();
  // The transport does not notice that the client closed stdin; the command ends then.
  process.stdin.once('end', () => {
    transport.close().catch((error: unknown) => io.err(`docqa mcp: ${(error as Error).message}`));
  });
  await runStdioProxy({ url, key, version: readBuildInfo().version, log: io.err }, transport);
  return 0;
}
