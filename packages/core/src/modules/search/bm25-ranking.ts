import type { SqlExecutor } from '@docqa/plugin-api';
import { SqlParams } from '@docqa/plugin-api';
import { documentConditions, metadataCondition, type SearchScope } from './filters.js';

/** BM25 parameters as Anserini's defaults (tuned on MS MARCO-like collections, not on any test set). */
export const bm25 = { k1: 0.9, b: 0.4 } as const;

export interface LexicalHit {
  chunkId: string;
  documentId: string;
  score: number;
}

/** A query term with its weight (query count × idf) and its document frequency. */
export interface WeightedTerm {
  term: string;
  weight: number;
  df: number;
}

export interface Ranking {
  db: SqlExecutor;
  scope: SearchScope;
  averageLength: number;
  topK: number;
  /** Terms from this df on are looked up in the term windows (window-search.ts); none when undefined. */
  windowDf?: number;
}

/**
 * More than the terms' postings can add to a chunk: tf / (tf + k1 · (1 − b + b · dl / avgdl)) < 1,
 * so a posting adds less than weight · (k1 + 1). The margin covers rounding in SQL's sums.
 */
export function scoreBound(terms: readonly WeightedTerm[]): number {
  return terms.reduce((sum, term) => sum + term.weight * (bm25.k1 + 1), 0) * (1 + 1e-9) + 1e-12;
}

/** Postings (per result asked for) the first pass reads at least, from the rarest terms. */
const seedPostingsPerResult = 2;
/**
 * A candidate's lookups of the skipped terms, priced in scanned postings. One lookup costs several,
 * but only candidates that could still reach the top k are looked up, a small share of them: one
 * for one ran fastest on bench:retrieval's corpus (and chose no pruning where pruning lost).
 */
const lookupCost = 1;

/**
 * The exact BM25 top k of chunks of eligible documents, terms given rarest (highest weight) first.
 *
 * Without reading every posting of the query's frequent terms (MaxScore, Turtle and Flood 1995): a
 * first pass over the rarest terms gives a score that k chunks reach at least (a full score is
 * never lower than a partial one). Frequent terms whose bounds add up to less cannot lift a chunk
 * that has none of the other terms into the top k: only chunks with one of the other terms are
 * ranked, the frequent terms' postings looked up for those that could still make it.
 */
export async function rankChunks(ranking: Ranking, terms: readonly WeightedTerm[]): Promise<LexicalHit[]> {
  if (terms.length === 0) return [];
  if (needsDocumentJoin(ranking.scope)) return rankWithinEligible(ranking, terms);
  const skipped = await skippableTerms(ranking, terms);
  const scanned = terms.slice(0, terms.length - skipped);
  const hits =
    skipped > 0 ? await rankWithLookups(ranking, scanned, terms.slice(scanned.length)) : await rankAll(ranking, terms);
  // Too few of the best chunks were eligible to be sure of the top k: rank among eligible ones only.
  return hits ?? rankWithinEligible(ranking, terms);
}

/**
 * Filters that pick documents or chunks by id, source or metadata select few of them: those are joined
 * before ranking. Otherwise (status, groups) most chunks pass, and eligibility is checked on the
 * best-ranked only, instead of joining every posting to its document.
 */
export function needsDocumentJoin(scope: SearchScope): boolean {
  const { document_ids, source_type, source_id, metadata } = scope.filters ?? {};
  return (
    document_ids !== undefined ||
    source_type !== undefined ||
    source_id !== undefined ||
    Object.keys(metadata ?? {}).length > 0
  );
}

/**
 * The passes over unfiltered scopes (two shapes: with the groups' visibility or without) stay
 * prepared on PostgreSQL: their generic plans are the custom ones (the laterals fix the joins), and
 * planning them was about half of PostgreSQL's time in them (docs/operations.md, Load).
 */
const prepared = { prepared: true } as const;

/** Chunks ranked before their documents are checked: enough for k eligible ones in nearly every case. */
export const candidatesFor = (topK: number) => topK * 2 + 10;

/**
 * How many of the most frequent terms need not be scanned: the longest tail whose bound stays under
 * the k-th best eligible score of a first pass over the rarest terms, and whose lookups would cost
 * less than scanning it. 0 when pruning does not apply.
 */
async function skippableTerms(ranking: Ranking, terms: readonly WeightedTerm[]): Promise<number> {
  if (terms.length < 2) return 0;
  let seed = 0;
  let seedPostings = 0;
  while (seed < terms.length - 1 && (seed === 0 || seedPostings < seedPostingsPerResult * ranking.topK))
    seedPostings += (terms[seed++] as WeightedTerm).df;
  const bar = await kthEligibleScore(ranking, terms.slice(0, seed));
  if (bar === null) return 0;
  let skippable = 0;
  while (skippable < terms.length - seed && scoreBound(terms.slice(terms.length - skippable - 1)) < bar) skippable++;
  // Lookups for every chunk with a scanned term, against one pass over the skipped terms' postings.
  const postings = (list: readonly WeightedTerm[]) => list.reduce((sum, term) => sum + term.df, 0);
  while (
    skippable > 0 &&
    postings(terms.slice(0, terms.length - skippable)) * skippable * lookupCost >
      postings(terms.slice(terms.length - skippable))
  )
    skippable--;
  return skippable;
}

/**
 * A posting's weighted BM25, weight · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl)), for
 * posting alias `t` and `weight` (the term's query weight): constants folded in beforehand, since
 * this runs once per posting.
 */
function bm25Sql(params: SqlParams, t: string, weight: string, averageLength: number): string {
  const saturation = params.add(bm25.k1 * (1 - bm25.b));
  const perLength = params.add(averageLength > 0 ? (bm25.k1 * bm25.b) / averageLength : 0);
  return `${weight} * ${params.add(bm25.k1 + 1)}::float8 * ${t}.tf / (${t}.tf + ${saturation}::float8 + ${perLength}::float8 * ${t}.chunk_length)`;
}

/** unnest(terms, weights) as w(term, weight). */
function termsSql(params: SqlParams, terms: readonly WeightedTerm[]): string {
  return `unnest(${params.add(terms.map((term) => term.term))}::text[], ${params.add(terms.map((term) => term.weight))}::float8[]) as w(term, weight)`;
}

/**
 * Each term's postings, as `t` (chunk_id, document_id, tf, chunk_length), read through the index on
 * term: `offset 0` keeps the lateral from being flattened into a join, which with statistics taken
 * while chunk_term was still filling (autovacuum during a bulk ingest) was planned as a scan of every
 * posting hashed against the terms (17 ms instead of 1 for a 10-term claim at 1,000 documents).
 */
function postingsSql(params: SqlParams, terms: readonly WeightedTerm[]): string {
  return `${termsSql(params, terms)} cross join lateral (
         select t.chunk_id, t.document_id, t.tf, t.chunk_length from chunk_term t where t.term = w.term offset 0
       ) t`;
}

/** The terms' summed BM25 per chunk (chunk_id, score), over their postings only. */
function summedScoresSql(params: SqlParams, terms: readonly WeightedTerm[], averageLength: number): string {
  return `select t.chunk_id, sum(${bm25Sql(params, 't', 'w.weight', averageLength)}) as score
       from ${postingsSql(params, terms)}
       group by t.chunk_id`;
}

/**
 * The candidates of CTE `top` (chunk_id, score), best first, with their document if it may be
 * searched (indexed, visible to the groups), else null: looked up by primary key for these few
 * rows, never by reading the whole document table.
 */
function eligibleCandidatesSql(params: SqlParams, scope: SearchScope): string {
  return `select top.chunk_id, top.score, d.document_id
     from top left join lateral (${eligibleDocumentSql(params, scope, 'top')}) d on true
     order by top.score desc, top.chunk_id`;
}

/**
 * The document of candidate `row` (a chunk_id column) if it may be searched. The limit (a chunk has
 * one document) keeps the planner from flattening the lateral into a join: with statistics taken
 * while most documents were still being indexed (autovacuum during a bulk ingest), status =
 * 'indexed' looked rare, and the join became a scan of every document and chunk per candidate.
 */
export function eligibleDocumentSql(params: SqlParams, scope: SearchScope, row: string): string {
  return `select c.document_id from chunk c join document d on d.id = c.document_id
     where c.id = ${row}.chunk_id and ${documentConditions('d', scope, params).join(' and ')} limit 1`;
}

interface CandidateRow {
  chunk_id: string;
  score: number;
  /** Null when the chunk's document may not be searched. */
  document_id: string | null;
}

/**
 * The first k eligible of the best-ranked candidates; null when fewer than k of them were eligible
 * while there were more candidates (the top k of eligible chunks may lie further down).
 */
function firstEligible(rows: readonly CandidateRow[], topK: number): LexicalHit[] | null {
  const eligible = rows.filter((row) => row.document_id !== null);
  if (eligible.length < topK && rows.length === candidatesFor(topK)) return null;
  return eligible
    .slice(0, topK)
    .map((row) => ({ chunkId: row.chunk_id, documentId: row.document_id as string, score: Number(row.score) }));
}

/** The best chunks by the terms' summed scores, each with its document when that document is eligible. */
async function bestCandidates(ranking: Ranking, terms: readonly WeightedTerm[]): Promise<CandidateRow[]> {
  const params = new SqlParams();
  const scored = summedScoresSql(params, terms, ranking.averageLength);
  const { rows } = await ranking.db.query<CandidateRow>(
    `with scored as (${scored}), top as (select * from scored order by score desc, chunk_id limit ${params.add(candidatesFor(ranking.topK))})
     ${eligibleCandidatesSql(params, ranking.scope)}`,
    params.values,
    prepared,
  );
  return rows;
}

/** The k-th best summed score of the terms among chunks of eligible documents; null if unknown or fewer than k. */
async function kthEligibleScore(ranking: Ranking, terms: readonly WeightedTerm[]): Promise<number | null> {
  const rows = await bestCandidates(ranking, terms);
  const eligible = rows.filter((row) => row.document_id !== null);
  return eligible.length >= ranking.topK ? Number((eligible[ranking.topK - 1] as CandidateRow).score) : null;
}

/** Every posting of every term, summed per chunk; eligibility checked on the best. */
async function rankAll(ranking: Ranking, terms: readonly WeightedTerm[]): Promise<LexicalHit[] | null> {
  return firstEligible(await bestCandidates(ranking, terms), ranking.topK);
}

/**
 * Chunks with at least one of the `scanned` terms, by their full score: the skipped terms' postings
 * are looked up by (term, chunk) for the chunks whose partial score plus the skipped terms' bound
 * still reaches the k-th best eligible partial score (no other chunk can enter the top k).
 */
async function rankWithLookups(
  ranking: Ranking,
  scanned: readonly WeightedTerm[],
  skipped: readonly WeightedTerm[],
): Promise<LexicalHit[] | null> {
  const params = new SqlParams();
  const partial = summedScoresSql(params, scanned, ranking.averageLength);
  const k = params.add(ranking.topK);
  const candidates = params.add(candidatesFor(ranking.topK));
  const skippedTerms = params.add(skipped.map((term) => term.term));
  const skippedWeights = params.add(skipped.map((term) => term.weight));
  const lookup = `select sum(${bm25Sql(params, 't', `(${skippedWeights}::float8[])[array_position(${skippedTerms}::text[], t.term)]`, ranking.averageLength)})
       from chunk_term t where t.term = any(${skippedTerms}::text[]) and t.chunk_id = p.chunk_id`;
  const { rows } = await ranking.db.query<CandidateRow>(
    `with partial as materialized (${partial}),
     partial_top as (select * from partial order by score desc, chunk_id limit ${candidates}),
     bar as (select coalesce((select p.score from partial_top p cross join lateral (${eligibleDocumentSql(params, ranking.scope, 'p')}) d
                              order by p.score desc offset ${k}::int - 1 limit 1), '-infinity'::float8) as score),
     ranked as (
       select p.chunk_id, p.score + coalesce((${lookup}), 0) as score
       from partial p, bar where p.score + ${params.add(scoreBound(skipped))}::float8 >= bar.score
     ),
     top as (select * from ranked order by score desc, chunk_id limit ${candidates})
     ${eligibleCandidatesSql(params, ranking.scope)}`,
    params.values,
    prepared,
  );
  return firstEligible(rows, ranking.topK);
}

/** Every posting of every term, of eligible documents only (metadata filter on the chunks), then the top k. */
async function rankWithinEligible(ranking: Ranking, terms: readonly WeightedTerm[]): Promise<LexicalHit[]> {
  const params = new SqlParams();
  const documents = documentConditions('d', ranking.scope, params);
  const score = bm25Sql(params, 't', 'w.weight', ranking.averageLength);
  const metadata = metadataCondition('d', 'c', ranking.scope, params);
  // Visibility is worked out once per document (materialized), not once per posting.
  const { rows } = await ranking.db.query<{ chunk_id: string; document_id: string; score: number }>(
    `with eligible as materialized (select d.id, d.metadata from document d where ${documents.join(' and ')}),
     scored as (
       select t.chunk_id, t.document_id, sum(${score}) as score
       from ${postingsSql(params, terms)} join eligible e on e.id = t.document_id
       group by t.chunk_id, t.document_id
     )
     select s.chunk_id, s.document_id, s.score from scored s
     ${metadata ? `join eligible d on d.id = s.document_id join chunk c on c.id = s.chunk_id where ${metadata}` : ''}
     order by s.score desc, s.chunk_id limit ${params.add(ranking.topK)}`,
    params.values,
  );
  return rows.map(toHit);
}

function toHit(row: { chunk_id: string; document_id: string; score: number }): LexicalHit {
  return { chunkId: row.chunk_id, documentId: row.document_id, score: Number(row.score) };
}
