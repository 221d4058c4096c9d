/** Loading the HNSW index into PostgreSQL's buffers before dense search is measured. */
import type { Db } from '@docqa/plugin-api';

export interface Prewarmed {
  /** Bytes of the vector table's HNSW indexes read into shared_buffers. */
  bytes: number;
  sharedBuffersBytes: number;
}

/**
 * A server in steady state answers dense search from an HNSW index held in memory, which is what
 * docs/operations.md sizes shared_buffers for and what pg_prewarm restores after a restart. Here the
 * index was just built or the server restarted, and the windows build has since read gigabytes of
 * postings through the same buffers: a graph walk would then wait on a read per page it visits (at
 * a million chunks, the store's top 10 alone p50 20–65 ms after the build, 4–8 ms from memory).
 * Answers null, with the reason printed, where pg_prewarm is not available.
 */
export async function prewarmVectorIndex(db: Db, print: (line: string) => void): Promise<Prewarmed | null> {
  try {
    await db.query('create extension if not exists pg_prewarm');
  } catch (error) {
    print(`  HNSW index not prewarmed: pg_prewarm is not available (${(error as Error).message})`);
    return null;
  }
  const { rows } = await db.query<{ bytes: string; shared_buffers: string }>(
    `select coalesce(sum(pg_prewarm(i.indexrelid)), 0) * current_setting('block_size')::bigint as bytes,
       pg_size_bytes(current_setting('shared_buffers')) as shared_buffers
     from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
     where i.indrelid = 'vector_embedding'::regclass and a.amname = 'hnsw'`,
  );
  const prewarmed = { bytes: Number(rows[0]?.bytes ?? 0), sharedBuffersBytes: Number(rows[0]?.shared_buffers ?? 0) };
  const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  print(
    `  HNSW index read into shared_buffers by pg_prewarm: ${megabytes(prewarmed.bytes)} ` +
      `(shared_buffers ${megabytes(prewarmed.sharedBuffersBytes)})`,
  );
  return prewarmed;
}
