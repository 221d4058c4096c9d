import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { readTextPage } from '@docqa/core/documents';
import { documentUri, type McpCapability, type McpContext } from './context.js';
import { toolError } from './tool-errors.js';

// The limits of the REST bodies (POST /api/search, POST /api/chat, GET /api/docs).
const maxQueryLength = 8000;
const text = (what: string) =>
  z
    .string()
    .max(maxQueryLength)
    .refine((value) => value.trim().length > 0, 'must not be empty')
    .describe(what);

const searchInput = {
  query: text('What to look for, in any language the documents are in.'),
  top_k: z.number().int().min(1).max(100).default(10).describe('How many passages, best first (default 10).'),
  filters: z
    .strictObject({
      document_ids: z.array(z.uuid()).max(1000).optional().describe('Only these documents.'),
      metadata: z
        .record(z.string(), z.string())
        .optional()
        .describe('Every key must have this value on the passage or on its document.'),
    })
    .optional(),
};
const askInput = {
  question: text('The question, answered from the documents the caller may read.'),
  conversation_id: z
    .uuid()
    .optional()
    .describe('Continue this conversation (the conversation_id of an earlier answer): follow-ups are understood.'),
};
const sourceTypes = ['upload', 'connector', 'integration'] as const;
const listInput = {
  source: z
    .union([z.enum(sourceTypes), z.uuid()])
    .optional()
    .describe('Only uploads, connectors or integrations (`upload`, `connector`, `integration`), or one source by id.'),
  limit: z.number().int().min(1).max(100).default(20),
  offset: z.number().int().min(0).default(0),
};
const getInput = {
  id: z.uuid().describe('The document id (from search, ask or list_documents).'),
  page: z.number().int().min(1).default(1).describe('Page of the text, from 1; the answer says how many there are.'),
};

/** A result both as JSON text (what assistants read) and structured (what programs read). */
function answer(value: Record<string, unknown>, links: ContentBlock[] = []): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }, ...links], structuredContent: value };
}

/** The documents a result cites, as links to their resources. */
function documentLinks(items: Array<{ document_id: string; title: string; path: string }>): ContentBlock[] {
  const seen = new Map(items.map((item) => [item.document_id, item]));
  return [...seen.values()].map((item) => ({
    type: 'resource_link',
    uri: documentUri(item.document_id),
    name: item.title,
    description: item.path,
    mimeType: 'text/plain',
  }));
}

/** The four tools, each behind the gate of the REST endpoint it mirrors, failures answered as tool errors. */
export function registerTools(server: McpServer, context: McpContext): void {
  const { services, principal } = context;
  const guarded =
    <A>(capability: McpCapability, run: (args: A, signal: AbortSignal) => Promise<CallToolResult>) =>
    async (args: A, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
      try {
        await context.authorize(capability);
        return await run(args, extra.signal);
      } catch (error) {
        return toolError(error, capability, context.logger);
      }
    };
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'search',
    {
      title: 'Search the documents',
      description:
        'Finds the passages of the documents the caller may read that best match a query (BM25 in the ' +
        "passage's language, fused with embedding search when configured). Each item has the passage text, " +
        'its document_id, title, path and score.',
      inputSchema: searchInput,
      annotations: readOnly,
    },
    guarded('search', async (args: Args<typeof searchInput>) => {
      const request = { query: args.query, topK: args.top_k, ...(args.filters ? { filters: args.filters } : {}) };
      const result = await services.search.search(principal, request);
      return answer({ ...result }, documentLinks(result.items));
    }),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask the documents',
      description:
        'Answers a question from the documents the caller may read, citing passages as [n]; `sources` lists ' +
        'them. The turn is saved in a conversation: pass its conversation_id to ask a follow-up.',
      inputSchema: askInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded('ask', async (args: Args<typeof askInput>, signal) => {
      const asked = {
        query: args.question,
        conversationId: args.conversation_id ?? null,
        topK: 6,
        clientIp: context.clientIp,
      };
      const request = await services.chat.prepare(principal, asked);
      for await (const event of services.chat.answer(principal, request, signal)) {
        if (event.type !== 'done') continue;
        const { answer: reply, conversation_id, sources, ...rest } = event.outcome;
        return answer({ answer: reply, conversation_id, sources, ...rest }, documentLinks(sources));
      }
      throw new DocqaError('bad_request', 'The question was cancelled before it was answered.');
    }),
  );

  server.registerTool(
    'list_documents',
    {
      title: 'List documents',
      description:
        'The documents the caller may read, newest first, a page at a time: id, title, path, status, ' +
        'source, chunk_count, metadata. `total` counts them all.',
      inputSchema: listInput,
      annotations: readOnly,
    },
    guarded('list_documents', async (args: Args<typeof listInput>) => {
      const source = args.source;
      const bySource =
        source === undefined
          ? {}
          : (sourceTypes as readonly string[]).includes(source)
            ? { sourceType: source as (typeof sourceTypes)[number] }
            : { sourceId: source };
      const listed = await services.documents.list(principal, { limit: args.limit, offset: args.offset, ...bySource });
      return answer({ ...listed, items: listed.items.map((item) => ({ ...item, uri: documentUri(item.id) })) });
    }),
  );

  server.registerTool(
    'get_document',
    {
      title: 'Read a document',
      description:
        'A document the caller may read: its record and its text as indexed, a page (20 passages, about ' +
        '5,000 tokens) at a time; `pages` says how many there are.',
      inputSchema: getInput,
      annotations: readOnly,
    },
    guarded('get_document', async (args: Args<typeof getInput>) => {
      const document = await services.documents.get(principal, args.id);
      const page = await readTextPage(context.db, document.id, document.chunk_count, args.page);
      return answer({ document: { ...document, uri: documentUri(document.id) }, ...page });
    }),
  );
}

type Shape = Record<string, z.ZodType>;
/** A tool's arguments as its input shape parses them. */
type Args<S extends Shape> = z.output<z.ZodObject<S>>;
