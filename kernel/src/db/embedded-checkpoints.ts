import type pg from 'pg';
import type { Logger } from '@docqa/plugin-api';
import { startPeriodicTask, type PeriodicTask } from './periodic-task.js';

/**
 * PGlite runs PostgreSQL as a standalone backend: there is no checkpointer process, and a standalone
 * backend never asks for a checkpoint when its write-ahead log grows (PostgreSQL requests one for
 * WAL volume only under a postmaster). So nothing but a clean shutdown checkpointed the embedded
 * database, and pg_wal kept every segment ever written: 2.0 GB of it next to 1.1 GB of data after
 * 750 documents of the ×10 bench corpus, all of it replayed by the next start after a crash.
 *
 * This does the checkpointer's job from the server's thread: every `intervalMs` it reads how much
 * WAL was written since the last checkpoint's redo point, and runs CHECKPOINT past `walBytes`, or
 * past `timeoutMs` (PostgreSQL's checkpoint_timeout) once anything was written. Each checkpoint lets
 * PostgreSQL recycle the segments before its redo point as the next ones (renamed, not written
 * anew), so pg_wal stays within a few times `walBytes` and crash recovery replays at most about
 * that much. PGlite runs with fsync off, so a checkpoint writes the dirty pages of the 16 MB buffer
 * pool and syncs nothing.
 *
 * runOnce() checks now, and checkpoints when one is due; it answers what it did (null: none was due).
 */
export type EmbeddedCheckpoints = PeriodicTask<CheckpointRecord | null>;

export interface CheckpointRecord {
  /** Why: `wal` past the volume, `time` past the timeout. */
  reason: 'wal' | 'time';
  /** WAL written since the previous checkpoint's redo point. */
  walBytes: number;
  milliseconds: number;
}

export interface CheckpointLimits {
  intervalMs: number;
  walBytes: number;
  timeoutMs: number;
}

/**
 * 64 MB of WAL (four segments) between checkpoints, measured at about 40 s apart while the ×10
 * bench corpus was indexed; checked every 10 s, so the log passes the mark by one check's worth at
 * most. Five minutes is checkpoint_timeout's default.
 */
export const checkpointDefaults: CheckpointLimits = { intervalMs: 10_000, walBytes: 64 * 2 ** 20, timeoutMs: 300_000 };

/**
 * A checkpoint writes its own record (and PostgreSQL a note of the running transactions) after its
 * redo point: less than one WAL page means nothing was written since.
 */
const walPageBytes = 8192;

/** What is due, given the WAL since the last checkpoint's redo point and that checkpoint's age. */
export function checkpointDue(
  walSinceRedo: number,
  millisecondsSinceCheckpoint: number,
  limits: CheckpointLimits = checkpointDefaults,
): CheckpointRecord['reason'] | null {
  if (walSinceRedo >= limits.walBytes) return 'wal';
  if (millisecondsSinceCheckpoint >= limits.timeoutMs && walSinceRedo > walPageBytes) return 'time';
  return null;
}

export function startEmbeddedCheckpoints(
  pool: pg.Pool,
  logger: Logger,
  limits: CheckpointLimits = checkpointDefaults,
): EmbeddedCheckpoints {
  async function check(stopping: () => boolean): Promise<CheckpointRecord | null> {
    const { rows } = await pool.query<{ wal: number; age: number }>(
      `select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::float8 as wal,
              (extract(epoch from clock_timestamp() - checkpoint_time) * 1000)::float8 as age
       from pg_control_checkpoint()`,
    );
    const { wal, age } = rows[0]!;
    const reason = checkpointDue(wal, age, limits);
    if (reason === null || stopping()) return null;
    const started = performance.now();
    await pool.query('checkpoint');
    const record = { reason, walBytes: Math.round(wal), milliseconds: Math.round(performance.now() - started) };
    // A long one held the connection (and the server's thread) that long: worth an operator's eye.
    if (record.milliseconds >= 1000) logger.info(record, 'embedded database checkpoint');
    else logger.debug(record, 'embedded database checkpoint');
    return record;
  }

  // A missed checkpoint only lets the log grow until the next one.
  return startPeriodicTask(check, limits.intervalMs, (error) =>
    logger.warn({ err: error }, 'checkpoint of the embedded database failed'),
  );
}
