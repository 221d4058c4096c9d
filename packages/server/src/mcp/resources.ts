import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListResourcesRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { readChunkText } from '@docqa/core/documents';
import { documentUri, documentUriTemplate, type McpCapability, type McpContext } from './context.js';
import { failureMessage } from './tool-errors.js';

/** Resources per resources/list page; `nextCursor` fetches the next. */
const resourcesPerPage = 100;
/**
 * A resource is read whole (a client attaches it to a conversation), up to about 100,000 tokens;
 * past that the text ends with a note, and get_document pages through the rest.
 */
const maxResourceChunks = 400;
/** MCP's code for an unknown resource (the specification's -32002). */
const resourceNotFound = -32002;

/**
 * Indexed documents the caller may read as resources `docqa://documents/{id}` of their text. The
 * SDK's resources/list has no paging, so DocQA answers it itself: a cursor is the next offset.
 */
export function registerResources(server: McpServer, context: McpContext): void {
  const { services, principal } = context;
  const template = new ResourceTemplate(documentUriTemplate, { list: undefined });
  server.registerResource(
    'document',
    template,
    { title: 'A document', description: 'The text of a document, as indexed.', mimeType: 'text/plain' },
    async (uri, variables) =>
      guard(context, 'get_document', async () => {
        const id = String(variables.id);
        if (!z.uuid().safeParse(id).success) throw new DocqaError('not_found', `There is no resource ${uri.href}.`);
        const document = await services.documents.get(principal, id);
        const { text, chunks } = await readChunkText(context.db, document.id, 0, maxResourceChunks);
        const rest = document.chunk_count - chunks;
        const note = rest > 0 ? `\n\n[${rest} more passages: read them with the get_document tool.]` : '';
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: text + note }] };
      }),
  );
  server.server.setRequestHandler(ListResourcesRequestSchema, async (request) =>
    guard(context, 'list_documents', async () => {
      const cursor = request.params?.cursor;
      const offset = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isInteger(offset) || offset < 0)
        throw new McpError(ErrorCode.InvalidParams, `"${cursor}" is not a cursor resources/list gave.`);
      const query = { limit: resourcesPerPage, offset, status: 'indexed' as const };
      const listed = await services.documents.list(principal, query);
      const resources = listed.items.map((document) => ({
        uri: documentUri(document.id),
        name: document.title ?? document.filename,
        title: document.title ?? document.filename,
        description: document.path,
        mimeType: 'text/plain',
      }));
      const next = offset + listed.items.length;
      return { resources, ...(next < listed.total ? { nextCursor: String(next) } : {}) };
    }),
  );
}

/** Resource requests have no tool result to carry a failure: it is a JSON-RPC error with DocQA's sentence. */
async function guard<T>(context: McpContext, capability: McpCapability, run: () => Promise<T>): Promise<T> {
  try {
    await context.authorize(capability);
    return await run();
  } catch (error) {
    if (error instanceof McpError) throw error;
    const message = failureMessage(error, `MCP resources (${capability})`, context.logger);
    throw new McpError(jsonRpcCode(error), message);
  }
}

function jsonRpcCode(error: unknown): number {
  if (!DocqaError.is(error) || error.status >= 500) return ErrorCode.InternalError;
  if (error.code === 'not_found') return resourceNotFound;
  return error.code === 'validation_failed' ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
}
