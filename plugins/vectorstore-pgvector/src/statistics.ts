import type { Db, Logger } from '@docqa/plugin-api';

export interface StatisticsKeeper {
  /** Records that this many vectors were written or deleted, and analyzes when that adds up. */
  noteChanges(rows: number): Promise<void>;
}

// autovacuum's defaults: analyze once 50 rows plus a tenth of the table have changed.
const baseThreshold = 50;
const scaleFactor = 0.1;
/**
 * ANALYZE holds 300 × this many sampled rows in memory, whole rows with their embeddings even though
 * only two columns are analyzed. At PostgreSQL's default of 100 that is 30,000 rows: a 384-d vector
 * is 1.5 KB stored inline, so PGlite's WebAssembly memory, which never shrinks, grew by 32 MB at the
 * first analyze of 20,000 vectors (38 → 70 MB measured). 3,000 rows still estimate the number of
 * documents within a few percent (799 of 800 measured) and take at most about 6 MB: a vector large
 * enough to need more is stored out of line and sampled as a pointer.
 */
const statisticsTarget = 10;

/**
 * The planner picks the HNSW index over an exact scan only when it knows how many vectors a space
 * holds. A PostgreSQL server learns that through autovacuum; PGlite runs none. DocQA's server does
 * that job on the embedded database once a minute (kernel/src/db/embedded-autovacuum.ts), but a
 * plugin cannot count on running in that server, and a new space's first searches should not scan
 * every vector for up to a minute: this analyzes as soon as an upsert crosses the threshold.
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
        await db.transaction(async (tx) => {
          await tx.query(`set local default_statistics_target = ${statisticsTarget}`);
          // The columns queries filter on; the embeddings themselves tell the planner nothing.
          await tx.query('analyze vector_embedding (space, document_id)');
        });
        rowsAtAnalyze = await estimatedRows(db);
      } catch (error) {
        // Stale statistics cost speed, never correctness: the write itself succeeded.
        logger.warn({ err: error }, 'refreshing the planner statistics of vector_embedding failed');
      }
    },
  };
}

async function estimatedRows(db: Db): Promise<number> {
  const { rows } = await db.query<{ rows: number }>(
    `select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'vector_embedding'::regclass`,
  );
  return Number(rows[0]?.rows ?? 0);
}
