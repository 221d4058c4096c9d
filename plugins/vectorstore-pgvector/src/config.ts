import { z } from 'zod';

/**
 * Options of the pgvector store. The bounds are pgvector's own (m 2..100, ef_construction 4..1000,
 * ef_search 1..1000), checked here so a bad value fails at start-up instead of at the first upsert.
 */
export const pgvectorOptionsSchema = z
  .strictObject({
    /**
     * Candidates HNSW keeps while searching; raised to topK for larger queries. 400, not pgvector's
     * 40: on 100,000 clustered 384-d vectors (npm run bench:retrieval) recall@10 was 0.92–0.94 at
     * 40 and 0.99 at 100; on a million (graph built with efConstruction 128), over two sets of 200
     * queries, 0.949–0.966 at 200 and 0.970–0.974 at 400, a top-10 query taking p50 ~8 ms instead
     * of ~4 (PostgreSQL 15, 2 cores).
     */
    efSearch: z.number().int().min(1).max(1000).default(400),
    /** Links per node in the HNSW graph. */
    m: z.number().int().min(2).max(100).default(16),
    /**
     * Candidates HNSW keeps while building the graph. 128, not pgvector's 64: on a million clustered
     * 384-d vectors a graph built with 64 reached recall@10 of only 0.81 at efSearch 100 and 0.935
     * at 800; with 128, 0.955 at 100. Its price: that build took 392 s on two cores, where writing
     * the million vectors and building with 64 took 431 s together.
     */
    efConstruction: z.number().int().min(4).max(1000).default(128),
    /** Vectors written by one INSERT statement (on the embedded database at most 4, see store.ts). */
    batchSize: z.number().int().min(1).max(10_000).default(500),
  })
  .refine((options) => options.efConstruction >= 2 * options.m, {
    // pgvector refuses such an index only when the first space gets its index; say it at start-up.
    message: 'efConstruction must be at least twice m',
    path: ['efConstruction'],
  });

export type PgvectorOptions = z.output<typeof pgvectorOptionsSchema>;
