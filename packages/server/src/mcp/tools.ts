import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult, type ContentBlock } from '@modelcontextprotocol/sdk/types.js';
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
      // As POST /api/search takes them (and list_documents' `source`).
      source_type: z
        .enum(['upload', 'connector', 'integration'])
        .optional()
        .describe('Only documents from this kind of source: uploads, connectors or integrations.'),
      source_id: z.uuid().optional().describe("Only this connector's or integration's documents."),
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

/**
 * The four tools, each behind the gate of the REST endpoint it mirrors, failures answered as tool errors.
 *
 * The SDK checks a call's arguments against the tool's input schema before it calls the tool, so a
 * caller the gate refuses would learn from a validation message what the tool takes before being
 * refused. The tools are registered with the SDK for `tools/list` (their JSON schemas), and calls
 * are answered here instead: the gate first, as every REST endpoint checks auth, role, scope and
 * plan before its body, then the arguments, then the tool.
 */
export function registerTools(server: McpServer, context: McpContext): void {
  const { services, principal } = context;
  const tools = new Map<string, Tool>();
  const define = <S extends Shape>(
    name: McpCapability,
    config: { title: string; description: string; inputSchema: S; annotations: ToolAnnotations },
    run: (args: Args<S>, signal: AbortSignal) => Promise<CallToolResult>,
  ) => {
    // Never called: calls are answered by the handler below.
    const unused: ToolCallback<Shape> = () =>
      toolError(new DocqaError('internal', `MCP tool ${name} is answered by registerTools.`), name, context.logger);
    server.registerTool<Shape, Shape>(name, config, unused);
    tools.set(name, { input: z.object(config.inputSchema), run: run as Tool['run'] });
  };
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  define(
    'search',
    {
      title: 'Search the documents',
      description:
        'Finds the passages of the documents the caller may read that best match a query (BM25 in the ' +
        "passage's language, fused with embedding search when configured). Each item has the passage text, " +
        'its document_id, title, path, score and location (pages, heading path, sheet, rows, and its offsets ' +
        'in the extracted text of GET /api/docs/{id}/content).',
      inputSchema: searchInput,
      annotations: readOnly,
    },
    async (args: Args<typeof searchInput>) => {
      const request = { query: args.query, topK: args.top_k, ...(args.filters ? { filters: args.filters } : {}) };
      const result = await services.search.search(principal, request);
      return answer({ ...result }, documentLinks(result.items));
    },
  );

  define(
    'ask',
    {
      title: 'Ask the documents',
      description:
        'Answers a question from the documents the caller may read, citing passages as [n]; `sources` lists ' +
        'them. The turn is saved in a conversation: pass its conversation_id to ask a follow-up.',
      inputSchema: askInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args: Args<typeof askInput>, signal) => {
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
    },
  );

  define(
    'list_documents',
    {
      title: 'List documents',
      description:
        'The documents the caller may read, newest first, a page at a time: id, title, path, status, ' +
        'source, chunk_count, metadata. `total` counts them all.',
      inputSchema: listInput,
      annotations: readOnly,
    },
    async (args: Args<typeof listInput>) => {
      const source = args.source;
      const bySource =
        source === undefined
          ? {}
          : (sourceTypes as readonly string[]).includes(source)
            ? { sourceType: source as (typeof sourceTypes)[number] }
            : { sourceId: source };
      const listed = await services.documents.list(principal, { limit: args.limit, offset: args.offset, ...bySource });
      return answer({ ...listed, items: listed.items.map((item) => ({ ...item, uri: documentUri(item.id) })) });
    },
  );

  define(
    'get_document',
    {
      title: 'Read a document',
      description:
        'A document the caller may read: its record and its text as indexed, a page (20 passages, about ' +
        '5,000 tokens) at a time; `pages` says how many there are.',
      inputSchema: getInput,
      annotations: readOnly,
    },
    async (args: Args<typeof getInput>) => {
      const document = await services.documents.get(principal, args.id);
      const page = await readTextPage(context.db, document.id, document.chunk_count, args.page);
      return answer({ document: { ...document, uri: documentUri(document.id) }, ...page });
    },
  );

  // After the tools: the SDK installs its own handler with the first tool, and this one replaces it.
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = tools.get(name);
    try {
      if (!tool)
        throw new DocqaError('not_found', `There is no tool ${name}; the tools are ${[...tools.keys()].join(', ')}.`);
      await context.authorize(name as McpCapability);
      const parsed = tool.input.safeParse(request.params.arguments ?? {});
      if (!parsed.success) {
        const errors = parsed.error.issues.map((issue) => ({
          field: issue.path.join('.') || '(arguments)',
          message: issue.message,
        }));
        throw new DocqaError('validation_failed', `Invalid arguments for tool ${name}`, { errors });
      }
      return await tool.run(parsed.data, extra.signal);
    } catch (error) {
      return toolError(error, name, context.logger);
    }
  });
}

type Shape = Record<string, z.ZodType>;
type ToolAnnotations = {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};
interface Tool {
  input: z.ZodObject<Shape>;
  run: (args: unknown, signal: AbortSignal) => Promise<CallToolResult>;
}
/** A tool's arguments as its input shape parses them. */
type Args<S extends Shape> = z.output<z.ZodObject<S>>;
