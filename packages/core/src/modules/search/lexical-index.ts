import type { SqlExecutor } from '@docqa/plugin-api';
import { analyzeChunk, analyzeQuery, LanguageDetector } from '../../index.js';
import type { SearchScope } from './filters.js';
import { rankChunks, type LexicalHit, type Ranking, type WeightedTerm } from './bm25-ranking.js';
import { termWindowSettings, type TermWindowSettings } from './term-window-build.js';
import { rankWithWindows } from './window-search.js';

export { bm25, type LexicalHit } from './bm25-ranking.js';

/** A chunk as BM25 sees it: its language, its analysed terms with their counts, and its length in terms. */
export interface AnalysedChunk {
  id: string;
  language: string | null;
  frequencies: Map<string, number>;
  length: number;
}

const detectors = new Map<string, LanguageDetector>();

/**
 * The detector for INDEX_LANGUAGES (empty: every language the detector knows), one per process and
 * list: eld's n-gram tables are loaded once and shared.
 */
export function languageDetector(indexLanguages: readonly string[] = []): LanguageDetector {
  const key = [...indexLanguages].sort().join(',');
  let detector = detectors.get(key);
  if (!detector) detectors.set(key, (detector = new LanguageDetector(indexLanguages)));
  return detector;
}

export function analyseChunk(id: string, text: string, language: string | null): AnalysedChunk {
  return { id, ...analyzeChunk(text, language) };
}

/** Analyses chunks of one document, each in its language (the document's when its own is not told). */
export function analyseChunks(
  chunks: ReadonlyArray<{ id: string; text: string }>,
  detector: LanguageDetector = languageDetector(),
): AnalysedChunk[] {
  const languages = detector.detectChunks(chunks.map((chunk) => chunk.text));
  return chunks.map((chunk, i) => analyseChunk(chunk.id, chunk.text, languages[i] ?? null));
}

/**
 * Writes the postings of some of a document's chunks in one statement, inside the ingest
 * transaction that inserted those chunks (so chunks and postings commit together; the caller
 * passes a batch, so memory stays bounded). Each chunk's id and length travel once, and each
 * posting names its chunk by position in that list: a posting costs a term, two integers and no
 * 36-character uuid text. Deleting a chunk deletes its postings (trigger in search/schema.ts).
 */
export async function writePostings(
  tx: SqlExecutor,
  documentId: string,
  chunks: readonly AnalysedChunk[],
): Promise<void> {
  const terms: string[] = [];
  const ordinals: number[] = [];
  const frequencies: number[] = [];
  chunks.forEach((chunk, index) => {
    for (const [term, tf] of chunk.frequencies) {
      terms.push(term);
      ordinals.push(index + 1);
      frequencies.push(tf);
    }
  });
  if (terms.length === 0) return;
  // The chunks' numbers (term windows, migrations.ts) in the same statement: no round trip more.
  await tx.query(
    `with numbered as (insert into lexical_chunk_number (chunk_id, document_id) select unnest($2::uuid[]), $1
                       on conflict do nothing)
     insert into chunk_term (term, chunk_id, document_id, tf, chunk_length)
     select u.term, ($2::uuid[])[u.ordinal], $1, u.tf, ($3::int[])[u.ordinal] from unnest($4::text[], $5::int[], $6::int[]) as u(term, ordinal, tf)`,
    [documentId, chunks.map((chunk) => chunk.id), chunks.map((chunk) => chunk.length), terms, ordinals, frequencies],
  );
}

/**
 * The languages the chunks were analysed in (null: chunks whose language was not told), read as a
 * loose index scan of chunk_language: one index probe per language, not a pass over the chunks.
 */
const languagesSql = `with recursive l (language) as (
       (select language from chunk where language is not null order by language limit 1)
       union all
       select (select c.language from chunk c where c.language > l.language order by c.language limit 1) from l where l.language is not null)
     select language from l where language is not null
     union all
     (select null from chunk where language is null limit 1)`;

export async function corpusLanguages(db: SqlExecutor): Promise<(string | null)[]> {
  const { rows } = await db.query<{ language: string | null }>(languagesSql);
  return rows.map((row) => row.language);
}

/**
 * Query terms with their counts (each 1: a query is a set of terms, see analyzeQuery).
 * Analysed in the query's language, or under each of the corpus's languages when that is not told.
 */
export function queryTerms(
  query: string,
  languages: readonly (string | null)[] = ['en'],
  detector: LanguageDetector = languageDetector(),
): Map<string, number> {
  return analyzeQuery(query, detector, languages);
}

export interface CorpusStatistics {
  /** Chunks of indexed documents. */
  chunks: number;
  averageLength: number;
  documentFrequency: Map<string, number>;
}

/**
 * N, avgdl and df of the terms, over every indexed document (whoever asks: scores do not depend on
 * the caller). df comes from term_stats, N and the total length from lexical_corpus, which triggers
 * keep equal to the postings and the indexed documents (migrations.ts): a frequent term costs one
 * row here, not its postings, and the corpus one row, not a pass over the documents.
 */
export async function corpusStatistics(db: SqlExecutor, terms: readonly string[]): Promise<CorpusStatistics> {
  return (await readCorpus(db, terms, false)).statistics;
}

interface CorpusRow {
  kind: 'language' | 'corpus' | 'term';
  /** The language (kind language) or the term (kind term). */
  name: string | null;
  df: string;
  chunks: string;
  total_length: string;
}

/**
 * The statistics of `terms` and, when asked, the corpus's languages, in one statement: a search
 * analyses its query under the languages the previous one saw and checks them in the same read.
 */
async function readCorpus(
  db: SqlExecutor,
  terms: readonly string[],
  withLanguages: boolean,
): Promise<{ statistics: CorpusStatistics; languages: (string | null)[] }> {
  const languages = withLanguages
    ? `with languages as (${languagesSql})
     select 'language' as kind, language as name, 0 as df, 0 as chunks, 0 as total_length from languages
     union all `
    : '';
  const { rows } = await db.query<CorpusRow>(
    `${languages}select 'corpus' as kind, null as name, 0 as df, c.chunks, c.terms as total_length from lexical_corpus c
     union all
     select 'term', s.term, s.df, 0, 0 from term_stats s where s.term = any($1::text[]) and s.df > 0`,
    [terms],
    // Two texts (with the languages or without), at every search: planning the languages' recursive
    // scan cost PostgreSQL more than running it.
    { prepared: true },
  );
  const corpus = rows.find((row) => row.kind === 'corpus');
  const chunks = Number(corpus?.chunks ?? 0);
  const documentFrequency = new Map(
    rows.filter((row) => row.kind === 'term').map((row) => [row.name as string, Number(row.df)]),
  );
  const averageLength = chunks > 0 ? Number(corpus?.total_length ?? 0) / chunks : 0;
  return {
    statistics: { chunks, averageLength, documentFrequency },
    languages: rows.filter((row) => row.kind === 'language').map((row) => row.name),
  };
}

/**
 * The corpus languages the last search on a database found, by its executor: what the next search's
 * query is analysed under before they are read. Only a guess: each search reads them again in the
 * statement that reads the statistics, and analyses again when they changed.
 */
const lastLanguages = new WeakMap<SqlExecutor, (string | null)[]>();

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The query's terms under the corpus's languages, and their statistics: one statement when the guess holds. */
async function termsAndStatistics(
  db: SqlExecutor,
  query: string,
  detector: LanguageDetector | undefined,
): Promise<{ counts: Map<string, number>; statistics: CorpusStatistics }> {
  const guess = lastLanguages.get(db);
  const guessed = guess ? queryTerms(query, guess, detector) : null;
  const read = await readCorpus(db, guessed ? [...guessed.keys()] : [], true);
  lastLanguages.set(db, read.languages);
  if (guessed && guess && sameList(guess, read.languages)) return { counts: guessed, statistics: read.statistics };
  const counts = queryTerms(query, read.languages, detector);
  if (counts.size === 0) return { counts, statistics: read.statistics };
  const same = guessed !== null && sameList([...guessed.keys()].sort(), [...counts.keys()].sort());
  return { counts, statistics: same ? read.statistics : await corpusStatistics(db, [...counts.keys()]) };
}

/** Lucene's BM25 idf: always positive, so a term in most chunks still counts a little. */
export function idf(chunks: number, df: number): number {
  return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
}

/**
 * BM25 over the postings of the query's terms only:
 * score = Σ qtf · idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl)),
 * restricted to indexed documents the groups may see and to the filters, so the top k is taken
 * after access control and never from chunks the caller may not read (see bm25-ranking.ts).
 */
export async function lexicalSearch(
  db: SqlExecutor,
  query: string,
  options: SearchScope & { topK: number; detector?: LanguageDetector; termWindows?: TermWindowSettings },
): Promise<LexicalHit[]> {
  const { counts, statistics } = await termsAndStatistics(db, query, options.detector);
  if (counts.size === 0) return [];
  // Rarest (highest weight) first: the order in which terms become worth reading in full.
  const terms: WeightedTerm[] = [...counts.keys()]
    .filter((term) => (statistics.documentFrequency.get(term) ?? 0) > 0)
    .map((term) => {
      const df = statistics.documentFrequency.get(term) as number;
      return { term, df, weight: (counts.get(term) as number) * idf(statistics.chunks, df) };
    })
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
  const windows = options.termWindows ?? termWindowSettings;
  const ranking: Ranking = {
    db,
    scope: options,
    averageLength: statistics.averageLength,
    topK: options.topK,
    windowDf: Math.max(windows.minimumDf, Math.ceil(statistics.chunks * windows.chunkShare)),
  };
  return (await rankWithWindows(ranking, terms)) ?? rankChunks(ranking, terms);
}
