import type { Db, Logger } from '@docqa/plugin-api';

export interface StatisticsKeeper {
  /** Records that this many vectors were written or deleted, and analyzes when that adds up. */
  noteChanges(rows: number): Promise<void>;
}

// autovacuum's defaults: analyze once 50 rows plus a tenth of the table have changed.
const baseThreshold = 50;
const scaleFactor = 0.1;

/**
 * The planner picks the HNSW index over an exact scan only when it knows how many vectors a space
 * holds. A PostgreSQL server learns that through autovacuum; PGlite runs no autovacuum, so without
 * this its planner would scan every vector of even a large space exactly, forever.
 */
export function createStatisticsKeeper(db: Db, logger: Logger): StatisticsKeeper {
  if (db.mode !== 'embedded') return { noteChanges: async () => undefined };
  let changedSinceAnalyze = 0;
  let rowsAtAnalyze: number | null = null;

  return {
    async noteChanges(rows) {
      changedSinceAnalyze += rows;
      try {
        rowsAtAnalyze ??= await estimatedRows(db);
        if (changedSinceAnalyze < baseThreshold + scaleFactor * rowsAtAnalyze) return;
        changedSinceAnalyze = 0;
        // The columns queries filter on; the embeddings themselves tell the planner nothing.
        await db.query('analyze vector_embedding (space, document_id)');
        rowsAtAnalyze = await estimatedRows(db);
      } catch (error) {
        // Stale statistics cost speed, never correctness: the write itself succeeded.
        logger.warn({ err: error }, 'refreshing the planner statistics of vector_embedding failed');
      }
    },
  };
}

async function estimatedRows(db: Db): Promise<number> {
  const { rows } = await db.query<{ rows: number }>(`select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'vector_embedding'::regclass`);
  return Number(rows[0]?.rows ?? 0);
}
