import type { SqlExecutor, Db } from '@docqa/plugin-api';
import { termFrequencies, analyzeEnglish } from '@docqa/core';
import { documentConditions, metadataCondition, SqlParams, type SearchScope } from './filters.js';

/** BM25 parameters as Anserini's defaults (tuned on MS MARCO-like collections, not on any test set). */
export const bm25 = { k1: 0.9, b: 0.4 } as const;

/** Postings per INSERT: a few thousand rows keeps statements small and round trips few. */
const postingsPerStatement = 5000;

export interface LexicalHit {
  chunkId: string;
  documentId: string;
  score: number;
}

/**
 * Writes the postings of a document's chunks, inside the ingest transaction that inserted them (so
 * chunks and postings commit together). Deleting a chunk cascades to its postings.
 */
export async function writeChunkTerms(tx: SqlExecutor, documentId: string, chunks: ReadonlyArray<{ id: string; text: string }>): Promise<void> {
  const terms: string[] = [];
  const chunkIds: string[] = [];
  const frequencies: number[] = [];
  const lengths: number[] = [];
  const chunkLengths = new Map<string, number>();
  let totalLength = 0;
  const flush = async () => {
    if (terms.length === 0) return;
    await tx.query(
      `insert into chunk_term (term, chunk_id, document_id, tf, chunk_length)
       select u.term, u.chunk_id, $1, u.tf, u.chunk_length from unnest($2::text[], $3::uuid[], $4::int[], $5::int[]) as u(term, chunk_id, tf, chunk_length)`,
      [documentId, terms, chunkIds, frequencies, lengths],
    );
    terms.length = chunkIds.length = frequencies.length = lengths.length = 0;
  };
  for (const chunk of chunks) {
    const { frequencies: counts, length } = termFrequencies(chunk.text);
    chunkLengths.set(chunk.id, length);
    totalLength += length;
    for (const [term, tf] of counts) {
      terms.push(term);
      chunkIds.push(chunk.id);
      frequencies.push(tf);
      lengths.push(length);
    }
    if (terms.length >= postingsPerStatement) await flush();
  }
  await flush();
  await tx.query('update chunk set term_count = u.term_count from unnest($1::uuid[], $2::int[]) as u(id, term_count) where chunk.id = u.id', [[...chunkLengths.keys()], [...chunkLengths.values()]]);
  await tx.query('update document set term_count = $2 where id = $1', [documentId, totalLength]);
}

/** Query terms with their counts: a term written twice weighs twice, as in Lucene's boolean query. */
export function queryTerms(query: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of analyzeEnglish(query)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

export interface CorpusStatistics {
  /** Chunks of indexed documents. */
  chunks: number;
  averageLength: number;
  documentFrequency: Map<string, number>;
}

/** N, avgdl and df of the terms, over every indexed document (whoever asks: scores do not depend on the caller). */
export async function corpusStatistics(db: SqlExecutor, terms: readonly string[]): Promise<CorpusStatistics> {
  const { rows } = await db.query<{ term: string | null; df: string; chunks: string; total_length: string }>(
    `with corpus as (select coalesce(sum(chunk_count), 0) as chunks, coalesce(sum(term_count), 0) as total_length from document where status = 'indexed')
     select null as term, 0 as df, corpus.chunks, corpus.total_length from corpus
     union all
     select t.term, count(*), 0, 0 from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' where t.term = any($1::text[]) group by t.term`,
    [terms],
  );
  const corpus = rows.find((row) => row.term === null);
  const chunks = Number(corpus?.chunks ?? 0);
  const documentFrequency = new Map(rows.filter((row) => row.term !== null).map((row) => [row.term as string, Number(row.df)]));
  return { chunks, averageLength: chunks > 0 ? Number(corpus?.total_length ?? 0) / chunks : 0, documentFrequency };
}

/** Lucene's BM25 idf: always positive, so a term in most chunks still counts a little. */
export function idf(chunks: number, df: number): number {
  return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
}

/**
 * BM25 over the postings of the query's terms only:
 * score = Σ qtf · idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl)),
 * restricted to indexed documents the groups may see and to the filters, inside the query, so the
 * top k is taken after access control and never from chunks the caller may not read.
 */
export async function lexicalSearch(db: Db, query: string, options: SearchScope & { topK: number }): Promise<LexicalHit[]> {
  const counts = queryTerms(query);
  if (counts.size === 0) return [];
  const terms = [...counts.keys()];
  const statistics = await corpusStatistics(db, terms);
  const present = terms.filter((term) => (statistics.documentFrequency.get(term) ?? 0) > 0);
  if (present.length === 0) return [];
  const weights = present.map((term) => (counts.get(term) as number) * idf(statistics.chunks, statistics.documentFrequency.get(term) as number));
  const params = new SqlParams();
  const termsSql = params.add(present);
  const weightsSql = params.add(weights);
  const k1 = params.add(bm25.k1);
  const b = params.add(bm25.b);
  const avgdl = params.add(statistics.averageLength);
  const documents = documentConditions('d', options, params);
  const metadata = metadataCondition('d', 'c', options, params);
  const limit = params.add(options.topK);
  // Visibility is worked out once per document (materialized), not once per posting.
  const { rows } = await db.query<{ chunk_id: string; document_id: string; score: number }>(
    `with eligible as materialized (select d.id, d.metadata from document d where ${documents.join(' and ')}),
     scored as (
       select t.chunk_id, t.document_id,
              sum(w.weight * t.tf * (${k1}::float8 + 1) / (t.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * t.chunk_length / ${avgdl}::float8))) as score
       from unnest(${termsSql}::text[], ${weightsSql}::float8[]) as w(term, weight)
       join chunk_term t on t.term = w.term
       join eligible e on e.id = t.document_id
       group by t.chunk_id, t.document_id
     )
     select s.chunk_id, s.document_id, s.score from scored s
     ${metadata ? `join eligible d on d.id = s.document_id join chunk c on c.id = s.chunk_id where ${metadata}` : ''}
     order by s.score desc, s.chunk_id limit ${limit}`,
    params.values,
  );
  return rows.map((row) => ({ chunkId: row.chunk_id, documentId: row.document_id, score: Number(row.score) }));
}
