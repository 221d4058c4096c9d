import type { Db, SqlExecutor } from '@docqa/plugin-api';
import { analyzerVersion } from '../../index.js';
import { encodeWindow, fitsWindow, windowSpan, type WindowPosting } from './term-windows.js';

/**
 * Building the frequent terms' bitmap windows (term-windows.ts) off the ingest path: a job reads
 * the postings of every frequent term for the chunks numbered up to a watermark and replaces the
 * windows in one transaction. Search reads chunks numbered above the watermark (the tail) from
 * chunk_term; chunks deleted or analysed again since keep their old numbers in the windows, which
 * map to no chunk, until the next build drops them.
 */
export const termWindowsQueue = 'lexical_term_windows';
/** The job's schedule: it builds only when due (buildTermWindowsIfDue), so most ticks cost one read. */
export const termWindowsSchedule = { key: 'periodic', cron: '*/10 * * * *' } as const;

export interface TermWindowSettings {
  /** A term gets windows from this many postings on, and from this share of the chunks on. */
  minimumDf: number;
  /** At 1/16 of the chunks a bitmap costs at most 2 bytes a posting (8 kB a window of 65,536). */
  chunkShare: number;
}

export const termWindowSettings: TermWindowSettings = { minimumDf: 4_096, chunkShare: 1 / 16 };

/** Any fixed number, other than term_stats' and the audit chain's: one build at a time. */
const buildLockKey = 0x0d0c_7e26;

export interface TermWindowsBuilt {
  watermark: number;
  terms: number;
  windows: number;
}

/**
 * The highest chunk number every chunk at or below has committed: the share lock waits for the
 * transactions writing numbers now (an ingest's), so no lower number commits later unseen. It is
 * held only for this read; an ingest running longer than the lock timeout fails the job (retried).
 */
async function committedWatermark(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`set local lock_timeout = '10s'`);
    await tx.query('lock table lexical_chunk_number in share mode');
    const { rows } = await tx.query<{ watermark: string }>(
      'select coalesce(max(number), 0) as watermark from lexical_chunk_number',
    );
    return Number(rows[0]?.watermark ?? 0);
  });
}

/**
 * A term's windows, or null when a posting does not fit a window's fields (its term stays in
 * chunk_term only). Read a window at a time (at most 65,536 rows in memory), by chunk number.
 */
async function termWindows(tx: SqlExecutor, term: string, watermark: number): Promise<Map<number, Uint8Array> | null> {
  const windows = new Map<number, Uint8Array>();
  for (let window = 0; window * windowSpan <= watermark; window++) {
    const { rows } = await tx.query<{ number: string; tf: number; chunk_length: number }>(
      `select n.number, t.tf, t.chunk_length from lexical_chunk_number n
       join chunk_term t on t.term = $1 and t.chunk_id = n.chunk_id
       where n.number >= $2 and n.number < $3 and n.number <= $4 order by n.number`,
      [term, window * windowSpan, (window + 1) * windowSpan, watermark],
    );
    if (rows.length === 0) continue;
    const postings: WindowPosting[] = rows.map((row) => ({
      offset: Number(row.number) - window * windowSpan,
      tf: row.tf,
      length: row.chunk_length,
    }));
    if (!postings.every(fitsWindow)) return null;
    windows.set(window, encodeWindow(postings));
  }
  return windows;
}

/** Replaces every term's windows by those of the chunks numbered up to now, in one transaction. */
export async function buildTermWindows(
  db: Db,
  settings: TermWindowSettings = termWindowSettings,
): Promise<TermWindowsBuilt> {
  const watermark = await committedWatermark(db);
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [buildLockKey]);
    const { rows: terms } = await tx.query<{ term: string }>(
      `select s.term from term_stats s, lexical_corpus c
       where s.df >= greatest($1::bigint, ceil(c.chunks * $2::float8)) order by s.term`,
      [settings.minimumDf, settings.chunkShare],
    );
    await tx.query('delete from term_window');
    let built = 0;
    let windows = 0;
    for (const { term } of terms) {
      const payloads = await termWindows(tx, term, watermark);
      if (!payloads || payloads.size === 0) continue;
      await tx.query(
        `insert into term_window (term, window_no, postings, payload)
         select $1, w, p, decode(x, 'hex') from unnest($2::int[], $3::int[], $4::text[]) as u(w, p, x)`,
        [
          term,
          [...payloads.keys()],
          [...payloads.values()].map((payload) => new DataView(payload.buffer).getUint32(0, true)),
          [...payloads.values()].map((payload) => Buffer.from(payload).toString('hex')),
        ],
      );
      built++;
      windows += payloads.size;
    }
    await tx.query(
      `insert into term_window_build (watermark, analyzer_version, built_at) values ($1, $2, now())
       on conflict (id) do update set watermark = excluded.watermark, analyzer_version = excluded.analyzer_version,
         built_at = excluded.built_at`,
      [watermark, analyzerVersion],
    );
    return { watermark, terms: built, windows };
  });
}

/** Chunks numbered past the watermark that make a build due: a twentieth of those built, at least 1,024. */
const dueTail = (watermark: number) => Math.max(1_024, Math.ceil(watermark / 20));

/**
 * The job: builds when there is no build yet and the corpus has enough chunks for a term to be
 * frequent, or when the tail (chunks search reads from chunk_term) has grown past dueTail. Answers
 * the build, or null when none was due.
 */
export async function buildTermWindowsIfDue(
  db: Db,
  settings: TermWindowSettings = termWindowSettings,
): Promise<TermWindowsBuilt | null> {
  const { rows } = await db.query<{ watermark: string | null; tail: string; chunks: string }>(
    `select b.watermark, (select chunks from lexical_corpus) as chunks,
       (select count(*) from lexical_chunk_number n where n.number > coalesce(b.watermark, 0)) as tail
     from (select 1) one left join term_window_build b on true`,
  );
  const row = rows[0];
  if (!row) return null;
  const due =
    row.watermark === null
      ? Number(row.chunks) >= settings.minimumDf
      : Number(row.tail) >= dueTail(Number(row.watermark));
  return due ? buildTermWindows(db, settings) : null;
}
