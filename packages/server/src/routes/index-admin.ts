import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { defineRoute } from '../http/route.js';
import { documentsTokens } from '@docqa/core/documents';

const statsSchema = z.object({
  documents: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    indexing: z.number().int(),
    indexed: z.number().int(),
    failed: z.number().int(),
  }),
  chunks: z.number().int(),
  embedded_chunks: z.number().int().describe('Chunks with a vector of the current embedding model.'),
  embedding_spaces: z
    .array(z.object({ model: z.string(), dimensions: z.number().int(), count: z.number().int() }))
    .describe('Every model whose vectors are stored; a switched model leaves its old space until a rebuild.'),
  index_size_bytes: z.number().int(),
  last_update: z.string().nullable(),
});
nameSchema(statsSchema, 'IndexStats');

export const indexRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/index/stats',
    access: 'required',
    tag: 'Index',
    operationId: 'getIndexStats',
    summary: 'What the index holds',
    responses: { 200: { description: 'Index statistics.', schema: statsSchema } },
    deps: { index: documentsTokens.index },
    handler: async ({ deps }) => ({ status: 200, body: await deps.index.stats() }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/index/rebuild',
    access: 'editor',
    tag: 'Index',
    operationId: 'rebuildIndex',
    summary: 'Re-index every document as a cancellable job',
    description:
      'Documents are re-indexed one by one; each keeps answering from its old chunks until its new ' +
      'ones are committed. While a rebuild is queued, another request answers 409.',
    responses: { 202: { description: 'The rebuild job.', schema: z.object({ job_id: z.uuid() }) } },
    deps: { index: documentsTokens.index },
    handler: async ({ deps, principal }) => ({
      status: 202,
      body: { job_id: await deps.index.startRebuild(principal!.userId) },
    }),
  }),
];
