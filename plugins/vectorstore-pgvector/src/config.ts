import { z } from 'zod';

/**
 * Options of the pgvector store. The bounds are pgvector's own (m 2..100, ef_construction 4..1000,
 * ef_search 1..1000), checked here so a bad value fails at start-up instead of at the first upsert.
 */
export const pgvectorOptionsSchema = z
  .strictObject({
    /**
     * Candidates HNSW keeps while searching; raised to topK for larger queries. 100, not pgvector's
     * 40: on 100,000 clustered 384-d vectors (npm run bench:retrieval) recall@10 was 0.92–0.94 at
     * 40, 0.97 at 64 and 0.99 at 100. The price: a top-10 query takes p50 ~9 ms instead of ~4 ms
     * (measured on PostgreSQL 15, 2 cores), small beside the lexical half of a hybrid search.
     */
    efSearch: z.number().int().min(1).max(1000).default(100),
    /** Links per node in the HNSW graph. */
    m: z.number().int().min(2).max(100).default(16),
    /** Candidates HNSW keeps while building the graph. */
    efConstruction: z.number().int().min(4).max(1000).default(64),
    /** Vectors written by one INSERT statement (on the embedded database at most 4, see store.ts). */
    batchSize: z.number().int().min(1).max(10_000).default(500),
  })
  .refine((options) => options.efConstruction >= 2 * options.m, {
    // pgvector refuses such an index only when the first space gets its index; say it at start-up.
    message: 'efConstruction must be at least twice m',
    path: ['efConstruction'],
  });

export type PgvectorOptions = z.output<typeof pgvectorOptionsSchema>;
