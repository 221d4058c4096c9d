import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { locationSchema } from './location-schema.js';
import { rerankOutcomeSchema, rerankTimingSchema } from './rerank-schemas.js';
import { searchTokens } from '@docqa/core/search';

const maxQueryLength = 8000;

const searchBody = z.strictObject({
  query: z
    .string()
    .max(maxQueryLength)
    .refine((value) => value.trim().length > 0, 'must not be empty'),
  top_k: z.number().int().min(1).max(100).default(10),
  filters: z
    .strictObject({
      document_ids: z.array(z.uuid()).max(1000).optional(),
      source_type: z
        .enum(['upload', 'connector', 'integration'])
        .optional()
        .describe('Only documents from this kind of source, as GET /api/docs filters them.'),
      source_id: z.uuid().optional().describe("Only this connector's or integration's documents."),
      metadata: z
        .record(z.string(), z.string())
        .optional()
        .describe('Every key must have this value on the chunk or on its document.'),
    })
    .optional(),
});

const filtersSchema = z.object({
  document_ids: z.array(z.uuid()).optional(),
  source_type: z.enum(['upload', 'connector', 'integration']).optional(),
  source_id: z.uuid().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

const searchResponse = z.object({
  items: z.array(
    z.object({
      chunk_id: z.uuid(),
      document_id: z.uuid(),
      title: z.string().describe('The document title, or its file name when it has none.'),
      path: z.string(),
      text: z.string(),
      score: z
        .number()
        .describe(
          'BM25 in lexical mode, cosine similarity in dense mode, the reciprocal rank fusion score in hybrid mode; ' +
            "the reranker's score when retrieval_settings.rerank is `applied`.",
        ),
      metadata: z.record(z.string(), z.unknown()),
      location: locationSchema,
    }),
  ),
  retrieval_settings: z.object({
    mode: z.enum(['lexical', 'dense', 'hybrid']),
    top_k: z.number().int(),
    filters: filtersSchema,
    rewritten_query: z.string().nullable(),
    rerank: rerankOutcomeSchema.optional(),
  }),
  timing: z.object({
    retrieve: z.number().describe('Milliseconds.'),
    rerank: rerankTimingSchema.optional(),
    total: z.number().describe('Milliseconds.'),
  }),
});

export const searchRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/search',
    // A read: its statements are cancelled when nobody waits for the answer.
    cancelOnDisconnect: true,
    access: 'required',
    keyScope: 'read',
    tag: 'Search',
    operationId: 'search',
    summary: 'Retrieve the chunks that best match a query',
    description:
      "BM25 over an analyzer for each chunk's language, fused by reciprocal rank with embedding search when an " +
      'embedder is configured. Only chunks of indexed documents the caller may see are searched.',
    request: { body: searchBody },
    responses: { 200: { description: 'The best chunks, best first.', schema: searchResponse } },
    deps: { search: searchTokens.service },
    handler: async ({ deps, principal, body }) => {
      const result = await deps.search.search(principal!, {
        query: body.query,
        topK: body.top_k,
        ...(body.filters ? { filters: body.filters } : {}),
      });
      return { status: 200, body: result };
    },
  }),
];
