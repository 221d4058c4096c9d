import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context.js';
import { registerResources } from './resources.js';
import { registerTools } from './tools.js';

export const mcpServerInfo = { name: 'docqa', title: 'DocQA' };

export const mcpInstructions = [
  "DocQA answers from an organisation's documents, only those the caller may read.",
  'Use `ask` for a grounded answer with cited sources, `search` for the passages themselves,',
  '`list_documents` and `get_document` (or the docqa://documents/{id} resources) to browse and read.',
].join(' ');

/**
 * DocQA's MCP server for one caller. The HTTP endpoint builds one per request (stateless: any
 * replica answers any request), which costs a few object allocations, not a database round trip.
 */
export function createMcpServer(context: McpContext, version: string): McpServer {
  const server = new McpServer(
    { ...mcpServerInfo, version },
    { capabilities: { tools: {}, resources: {} }, instructions: mcpInstructions },
  );
  registerTools(server, context);
  registerResources(server, context);
  return server;
}
