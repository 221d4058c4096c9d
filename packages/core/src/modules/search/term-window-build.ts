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
  /**
   * At 1/256 of the chunks a window's bitmap (8 kB for 65,536 chunks) costs at most 32 bytes a
   * posting, under half of the ~70 a posting takes in chunk_term's primary key. Up to 1,048,576
   * chunks minimumDf decides: a term in 4,096 chunks or more is read from windows, so a query's
   * other terms read fewer than 4,096 postings each from chunk_term.
   */
  chunkShare: number;
  /** Postings a build reads per statement (the rows it holds at once); tests cross pages with a few. */
  postingsPage: number;
}

export const termWindowSettings: TermWindowSettings = { minimumDf: 4_096, chunkShare: 1 / 256, postingsPage: 16_384 };

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

const offsetShift = 2 ** 24;
const tfShift = 2 ** 16;

/**
 * A window's postings gathered out of order, each packed into one number (offset, tf, length: 16,
 * 8 and 16 bits) in a growing Float64Array: 8 bytes a posting, sorted by offset once complete.
 */
class WindowGather {
  private packed = new Float64Array(64);
  private size = 0;

  add(posting: WindowPosting): void {
    if (this.size === this.packed.length) {
      const grown = new Float64Array(this.size * 2);
      grown.set(this.packed);
      this.packed = grown;
    }
    this.packed[this.size++] = posting.offset * offsetShift + posting.tf * tfShift + posting.length;
  }

  postings(): WindowPosting[] {
    const sorted = this.packed.subarray(0, this.size).sort();
    return Array.from(sorted, (packed) => ({
      offset: Math.floor(packed / offsetShift),
      tf: Math.floor(packed / tfShift) % 256,
      length: packed % tfShift,
    }));
  }
}

/**
 * A term's windows, or null when a posting does not fit a window's fields (its term stays in
 * chunk_term only). The term's postings are read in its primary key's order, a page at a time,
 * each with its chunk's number: a probe per posting, where reading each window's range of numbers
 * cost 65,536 probes per window whatever the term's df (a term in 1 % of a million chunks: 16
 * windows, 1 million probes for its 10,000 postings).
 */
async function termWindows(
  tx: SqlExecutor,
  term: string,
  watermark: number,
  postingsPage: number,
): Promise<Map<number, Uint8Array> | null> {
  const gathered = new Map<number, WindowGather>();
  let after: string | null = null;
  for (;;) {
    const { rows }: { rows: { chunk_id: string; number: string | null; tf: number; chunk_length: number }[] } =
      await tx.query(
        `select t.chunk_id, n.number, t.tf, t.chunk_length from chunk_term t
         left join lexical_chunk_number n on n.chunk_id = t.chunk_id and n.number <= $3
         where t.term = $1 and ($2::uuid is null or t.chunk_id > $2::uuid) order by t.chunk_id limit $4`,
        [term, after, watermark, postingsPage],
      );
    for (const row of rows) {
      // Not numbered up to the watermark: in the tail, which search reads from chunk_term.
      if (row.number === null) continue;
      const posting = { offset: Number(row.number) % windowSpan, tf: row.tf, length: row.chunk_length };
      if (!fitsWindow(posting)) return null;
      const window = Math.floor(Number(row.number) / windowSpan);
      const gather = gathered.get(window) ?? new WindowGather();
      gather.add(posting);
      gathered.set(window, gather);
    }
    if (rows.length < postingsPage) break;
    after = (rows[rows.length - 1] as { chunk_id: string }).chunk_id;
  }
  const windows = new Map<number, Uint8Array>();
  for (const window of [...gathered.keys()].sort((a, b) => a - b))
    windows.set(window, encodeWindow((gathered.get(window) as WindowGather).postings()));
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
      const payloads = await termWindows(tx, term, watermark, settings.postingsPage);
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
