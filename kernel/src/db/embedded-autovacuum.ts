import type pg from 'pg';
import type { Logger } from '@docqa/plugin-api';
import { startPeriodicTask, type PeriodicTask } from './periodic-task.js';

/**
 * PGlite is PostgreSQL without its background processes, so no autovacuum ever runs on the embedded
 * database: every row an update or a delete leaves behind stays in the files and in the indexes for
 * good, and the planner never gets statistics. Measured on the ingest's closing transaction (3,164
 * chunks, 110 postings each): after one re-index its postings cost 4.1 ms a chunk instead of 3.0,
 * and the indexed-state update 1.5 ms instead of 0.25, until a VACUUM (ANALYZE). This does
 * autovacuum's job from the server's thread, with autovacuum's thresholds, every `naptime`.
 *
 * Two things differ from a server's autovacuum, both because here a statement holds the one
 * connection and the server's thread until it ends:
 * - A table with an HNSW index is vacuumed without index cleanup. pgvector repairs its graph around
 *   every removed vector, which took 10 s for a 3,000-vector index (5 % deleted): at 20,000 vectors
 *   the job queue's 30 s wait for the connection would run out. The heap's dead rows are still
 *   removed (their space reused); their index entries stay and are skipped by every scan, as they
 *   were before this ran at all.
 * - ANALYZE samples 300 rows per point of statistics target, whole rows: at PostgreSQL's default of
 *   100, 30,000 chunk texts or vectors, which would grow PGlite's WebAssembly memory (it never
 *   shrinks) by tens of MB. A target of 10 samples 3,000, enough for row counts and the common values.
 *
 * runOnce() makes one pass over every table now and answers what it did; the timer calls it too.
 */
export type EmbeddedAutovacuum = PeriodicTask<TableMaintenance[]>;

export interface TableMaintenance {
  table: string;
  vacuum: boolean;
  analyze: boolean;
  /** False for a table with an HNSW index (see above). */
  indexCleanup: boolean;
  milliseconds: number;
}

/** The counters autovacuum decides by, per table (pg_stat_user_tables, pg_class). */
export interface TableActivity {
  table: string;
  /** The rows the last VACUUM or ANALYZE counted; -1 (never counted) reads as 0. */
  reltuples: number;
  deadRows: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
  hasGraphIndex: boolean;
}

/** PostgreSQL's autovacuum defaults (autovacuum_naptime and the *_threshold, *_scale_factor settings). */
export const autovacuumDefaults = {
  naptimeMs: 60_000,
  vacuumThreshold: 50,
  vacuumScaleFactor: 0.2,
  insertThreshold: 1000,
  insertScaleFactor: 0.2,
  analyzeThreshold: 50,
  analyzeScaleFactor: 0.1,
};

const statisticsTarget = 10;
/** Room for 1.4 million dead row addresses per index pass; PostgreSQL's 64 MB default would stay allocated in WebAssembly memory. */
const maintenanceWorkMem = '8MB';

/** Autovacuum's rule: what a table with these counters is due for. */
export function maintenanceDue(activity: TableActivity): { vacuum: boolean; analyze: boolean } {
  const rows = Math.max(activity.reltuples, 0);
  const d = autovacuumDefaults;
  const vacuum =
    activity.deadRows > d.vacuumThreshold + d.vacuumScaleFactor * rows ||
    activity.insertedSinceVacuum > d.insertThreshold + d.insertScaleFactor * rows;
  const analyze = activity.modifiedSinceAnalyze > d.analyzeThreshold + d.analyzeScaleFactor * rows;
  return { vacuum, analyze };
}

export function startEmbeddedAutovacuum(
  pool: pg.Pool,
  logger: Logger,
  naptimeMs = autovacuumDefaults.naptimeMs,
): EmbeddedAutovacuum {
  // Without index cleanup, the removed rows' slots stay counted as dead: per table, how many a
  // vacuum left, so that only new ones count towards the next (else it would run every pass).
  const deadLeftByVacuum = new Map<string, number>();

  async function pass(stopping: () => boolean): Promise<TableMaintenance[]> {
    const done: TableMaintenance[] = [];
    for (const activity of await tableActivity(pool)) {
      if (stopping()) break;
      const due = maintenanceDue({
        ...activity,
        deadRows: Math.max(0, activity.deadRows - (deadLeftByVacuum.get(activity.table) ?? 0)),
      });
      if (!due.vacuum && !due.analyze) continue;
      const started = performance.now();
      // One client for the three statements: PGlite has one session, and the settings must not
      // leak to whatever runs next. VACUUM cannot run inside a transaction, so no SET LOCAL.
      const client = await pool.connect();
      try {
        await client.query(`set maintenance_work_mem = '${maintenanceWorkMem}'`);
        await client.query(`set default_statistics_target = ${statisticsTarget}`);
        // A vacuum that is due analyzes as well: ANALYZE alone on a table of dead rows would record
        // "no rows" for all its pages, and the planner would then expect none however many are added.
        if (due.vacuum)
          await client.query(
            `vacuum (analyze${activity.hasGraphIndex ? ', index_cleanup off' : ''}) ${activity.table}`,
          );
        else await client.query(`analyze ${activity.table}`);
        if (due.vacuum && activity.hasGraphIndex) {
          const { rows } = await client.query<{ dead: string }>(
            'select n_dead_tup as dead from pg_stat_user_tables where relid = $1::regclass',
            [activity.table],
          );
          deadLeftByVacuum.set(activity.table, Number(rows[0]?.dead ?? 0));
        }
      } finally {
        await client.query('reset maintenance_work_mem; reset default_statistics_target').catch(() => undefined);
        client.release();
      }
      const record = {
        table: activity.table,
        vacuum: due.vacuum,
        analyze: true,
        indexCleanup: !activity.hasGraphIndex,
        milliseconds: Math.round(performance.now() - started),
      };
      // A long one held the connection (and the server's thread) that long: worth an operator's eye.
      if (record.milliseconds >= 1000) logger.info(record, 'embedded database maintenance');
      else logger.debug(record, 'embedded database maintenance');
      done.push(record);
    }
    return done;
  }

  // Maintenance only costs speed and disk when it fails; the next pass tries again.
  return startPeriodicTask(pass, naptimeMs, (error) =>
    logger.warn({ err: error }, 'maintenance of the embedded database failed'),
  );
}

async function tableActivity(pool: pg.Pool): Promise<TableActivity[]> {
  // A session sends its counters to the shared statistics when it goes idle, at most once a second:
  // this makes the idle moment before the next statement send all of them.
  await pool.query('select pg_stat_force_next_flush()');
  const { rows } = await pool.query<{
    name: string;
    reltuples: number;
    dead: string;
    inserted: string;
    modified: string;
    graph: boolean;
  }>(
    `select format('%I.%I', s.schemaname, s.relname) as name, c.reltuples::float8 as reltuples,
            s.n_dead_tup as dead, s.n_ins_since_vacuum as inserted, s.n_mod_since_analyze as modified,
            exists (select 1 from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_am a on a.oid = ic.relam
                    where i.indrelid = c.oid and a.amname = 'hnsw') as graph
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     order by s.schemaname, s.relname`,
  );
  return rows.map((row) => ({
    table: row.name,
    reltuples: Number(row.reltuples),
    deadRows: Number(row.dead),
    insertedSinceVacuum: Number(row.inserted),
    modifiedSinceAnalyze: Number(row.modified),
    hasGraphIndex: row.graph,
  }));
}
