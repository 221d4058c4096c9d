import { SqlParams, type SqlExecutor } from '@docqa/plugin-api';
import { candidatesFor, needsDocumentJoin, type LexicalHit, type Ranking, type WeightedTerm } from './bm25-ranking.js';
import { documentConditions } from './filters.js';
import { openWindow, type OpenWindow } from './term-windows.js';
import { TermWindowCache } from './window-cache.js';
import { maxWindowedTerms, rankWindows, type NumberedHit, type SparseTerm } from './window-ranking.js';

/** The windows are used while the other terms' postings are at most 1 / this of the frequent terms'. */
const otherPostingsShare = 4;
/** Rounds of asking the windows for more candidates (×4 each) while too few of them are eligible. */
const candidateRounds = 3;

interface WindowRow {
  watermark: string;
  built: string;
  term: string | null;
  window_no: number | null;
  payload: string | null;
}

/**
 * Opened windows held per database (the executor search is given), within this budget: the 20
 * most frequent words of a million chunks take ~18 MB opened.
 */
const windowCacheBytes = 64 * 2 ** 20;
const windowCaches = new WeakMap<SqlExecutor, TermWindowCache>();

function windowCacheOf(db: SqlExecutor): TermWindowCache {
  let cache = windowCaches.get(db);
  if (!cache) windowCaches.set(db, (cache = new TermWindowCache(windowCacheBytes)));
  return cache;
}

/**
 * The build's watermark and the frequent terms' windows by term; null before any build. One
 * statement reads the build and the windows not held in the cache for it; when the build turns
 * out newer than the cache's, the terms taken from the cache are read again.
 */
async function readWindows(ranking: Ranking, terms: readonly string[], fromCache = true) {
  const cache = windowCacheOf(ranking.db);
  const heldBuild = fromCache ? cache.build : null;
  const held = new Map<string, ReadonlyMap<number, OpenWindow>>();
  if (heldBuild !== null)
    for (const term of terms) {
      const windows = cache.get(heldBuild, term);
      if (windows) held.set(term, windows);
    }
  const { rows } = await ranking.db.query<WindowRow>(
    `select b.watermark, b.watermark || '/' || b.built_at as built, w.term, w.window_no,
       encode(w.payload, 'hex') as payload
     from term_window_build b left join term_window w on w.term = any($1::text[])`,
    [terms.filter((term) => !held.has(term))],
  );
  if (rows.length === 0) return null;
  const { watermark, built } = rows[0] as WindowRow;
  if (held.size > 0 && built !== heldBuild) return readWindows(ranking, terms, false);
  const read = new Map<string, Map<number, OpenWindow>>();
  for (const row of rows) {
    if (row.term === null || row.payload === null) continue;
    const byNumber = read.get(row.term) ?? new Map<number, OpenWindow>();
    byNumber.set(row.window_no as number, openWindow(Buffer.from(row.payload, 'hex')));
    read.set(row.term, byNumber);
  }
  for (const [term, byNumber] of read) cache.set(built, term, byNumber);
  return { watermark: Number(watermark), windows: new Map([...held, ...read]) };
}

/**
 * The postings search reads from chunk_term, by chunk number: every posting of the terms without
 * windows (rare ones), and the tail: the windowed terms' postings of chunks numbered above the
 * watermark, found from the few numbers past it (each lateral a probe the planner may not flatten).
 */
async function readPostings(ranking: Ranking, rare: readonly string[], windowed: readonly string[], watermark: number) {
  const { rows } = await ranking.db.query<{ term: string; number: string; tf: number; chunk_length: number }>(
    `select t.term, n.number, t.tf, t.chunk_length
     from unnest($1::text[]) as w(term)
     cross join lateral (select t.chunk_id, t.term, t.tf, t.chunk_length from chunk_term t
                         where t.term = w.term offset 0) t
     join lexical_chunk_number n on n.chunk_id = t.chunk_id
     union all
     select t.term, n.number, t.tf, t.chunk_length
     from (select number, chunk_id from lexical_chunk_number where number > $3 offset 0) n
     cross join lateral (select t.term, t.tf, t.chunk_length from chunk_term t
                         where t.term = any($2::text[]) and t.chunk_id = n.chunk_id offset 0) t`,
    [rare, windowed, watermark],
  );
  const byTerm = new Map<string, { chunk: number; tf: number; length: number }[]>();
  for (const row of rows) {
    const list = byTerm.get(row.term) ?? [];
    list.push({ chunk: Number(row.number), tf: row.tf, length: row.chunk_length });
    byTerm.set(row.term, list);
  }
  return byTerm;
}

/**
 * The candidates' chunks, those still numbered (not deleted nor analysed again), and their eligible
 * documents: the number's index holds its chunk and document, so no chunk row is read (a random
 * read each, 7.5 ms of a search's p50 at a million chunks). The limit keeps the lateral a lookup
 * by primary key, as in eligibleDocumentSql.
 */
async function eligibleHits(ranking: Ranking, hits: readonly NumberedHit[]) {
  const params = new SqlParams();
  const numbers = params.add(hits.map((hit) => hit.chunk));
  const { rows } = await ranking.db.query<{ number: string; chunk_id: string; document_id: string | null }>(
    `select n.number, n.chunk_id, d.id as document_id from unnest(${numbers}::int8[]) as u(number)
     join lexical_chunk_number n on n.number = u.number
     left join lateral (select d.id from document d
                        where d.id = n.document_id and ${documentConditions('d', ranking.scope, params).join(' and ')}
                        limit 1) d on true`,
    params.values,
  );
  const found = new Map(rows.map((row) => [Number(row.number), row]));
  return hits
    .filter((hit) => found.get(hit.chunk)?.document_id)
    .map((hit) => {
      const row = found.get(hit.chunk) as { chunk_id: string; document_id: string };
      return { chunkId: row.chunk_id, documentId: row.document_id, score: hit.score };
    })
    .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0));
}

/**
 * The exact BM25 top k from the frequent terms' windows, the tail and the rare terms' postings
 * (term-window-build.ts); null when the windows do not apply (no build, no windowed term, more
 * windowed terms than ranked on bitmaps, or too few eligible chunks among the best): the SQL
 * ranking answers then. Called only for terms from `ranking.windowDf` on and no narrowing filter.
 */
export async function rankWithWindows(ranking: Ranking, terms: readonly WeightedTerm[]): Promise<LexicalHit[] | null> {
  if (ranking.windowDf === undefined || needsDocumentJoin(ranking.scope)) return null;
  const frequent = terms.filter((term) => term.df >= (ranking.windowDf as number));
  if (frequent.length === 0 || frequent.length > maxWindowedTerms) return null;
  // The other terms' postings are read in full, each with its chunk's number: where they are more
  // than a quarter of the frequent ones, the SQL ranking (which can skip a frequent term) costs
  // less (bench:retrieval's ordinary queries: p95 1.58× through the windows without this check).
  const postingsOf = (list: readonly WeightedTerm[]) => list.reduce((sum, term) => sum + term.df, 0);
  if (postingsOf(terms) - postingsOf(frequent) > postingsOf(frequent) / otherPostingsShare) return null;
  const read = await readWindows(
    ranking,
    frequent.map((term) => term.term),
  );
  if (!read || read.windows.size === 0) return null;
  const windowed = terms.filter((term) => read.windows.has(term.term));
  const rare = terms.filter((term) => !read.windows.has(term.term));
  const postings = await readPostings(
    ranking,
    rare.map((term) => term.term),
    windowed.map((term) => term.term),
    read.watermark,
  );
  // A windowed term's tail is one more sparse term of the same weight: its chunks are in no window.
  const sparse: SparseTerm[] = [...rare, ...windowed].map((term) => ({
    weight: term.weight,
    postings: postings.get(term.term) ?? [],
  }));
  const windowedTerms = windowed.map((term) => ({
    weight: term.weight,
    windows: read.windows.get(term.term) as ReadonlyMap<number, OpenWindow>,
  }));
  let limit = candidatesFor(ranking.topK);
  for (let round = 0; round < candidateRounds; round++, limit *= 4) {
    const hits = rankWindows(windowedTerms, ranking.averageLength, limit, sparse);
    const eligible = await eligibleHits(ranking, hits);
    const last = hits[hits.length - 1];
    // All ranked, or k eligible ones above the last candidate (none of its ties left out).
    const kth = eligible[ranking.topK - 1];
    if (hits.length < limit || (kth !== undefined && last !== undefined && kth.score > last.score))
      return eligible.slice(0, ranking.topK);
  }
  return null;
}
