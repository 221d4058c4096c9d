/**
 * Bulk loading of the synthetic corpus: documents and chunks by SQL (what an ingest transaction
 * writes, without extraction and embedding, which would take hours at 100,000 chunks), BM25
 * postings through the ingestion's own analyseChunk and writePostings (with the postings' indexes built once
 * afterwards, see dropPostingIndexes), and vectors through the vector store
 * plugin's upsert — one call, so the store builds its HNSW index once over all of them, as on a
 * first indexing run, instead of inserting them into the graph one by one.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Db, EmbeddingSpace, VectorStoreProvider } from '@docqa/plugin-api';
import { chunkId } from '@docqa/core/documents';
import { analyseChunk, writePostings } from '@docqa/core/search';
import {
  chunkText,
  clusteredSpace,
  documentTopic,
  seededRandom,
  zipfVocabulary,
  type VectorSpaceOptions,
} from './corpus.js';

export interface CorpusOptions {
  chunks: number;
  chunksPerDocument: number;
  /** Made-up words besides the stop words. */
  vocabularySize: number;
  /** Words per chunk, uniformly between these (a 256-token chunk is about 190 words). */
  wordsPerChunk: [number, number];
  vectors: VectorSpaceOptions;
  seed: number;
}

export interface LoadReport {
  documents: number;
  chunks: number;
  postings: number;
  /** Documents, chunks and postings written (the postings table without its indexes). */
  textSeconds: number;
  /** chunk_term's primary key, index and foreign key built and checked once afterwards, and term_stats counted. */
  postingIndexSeconds: number;
  vectorSeconds: number;
  vacuumSeconds: number;
}

/** Documents written per transaction, and transactions in flight (one builds text while the other is in the database). */
const documentsPerTransaction = 20;
const transactionsInFlight = 2;

export async function loadCorpus(
  db: Db,
  store: VectorStoreProvider,
  space: EmbeddingSpace,
  options: CorpusOptions,
  progress: (stage: string) => void = () => {},
): Promise<LoadReport> {
  const textRandom = seededRandom(options.seed);
  const vocabulary = zipfVocabulary(options.vocabularySize, textRandom);
  const documents = Math.ceil(options.chunks / options.chunksPerDocument);
  const [minWords, maxWords] = options.wordsPerChunk;

  const textStarted = performance.now();
  const restorePostingIndexes = await dropPostingIndexes(db);
  let nextDocument = 0;
  const writeBatch = async (first: number, count: number) => {
    const docs = Array.from({ length: count }, (_, i) => {
      const number = first + i;
      const chunkCount = Math.min(options.chunksPerDocument, options.chunks - number * options.chunksPerDocument);
      const id = crypto.randomUUID();
      const topic = documentTopic(vocabulary, textRandom);
      const texts = Array.from({ length: chunkCount }, () =>
        chunkText(vocabulary, textRandom, minWords + Math.floor(textRandom() * (maxWords - minWords + 1)), topic),
      );
      return {
        id,
        name: `synthetic-${String(number).padStart(6, '0')}.txt`,
        chunks: texts.map((text, position) => ({ id: chunkId(id, position), position, text })),
      };
    });
    const analysed = docs.map((d) => d.chunks.map((c) => analyseChunk(c.id, c.text, null)));
    const termCount = (chunks: ReturnType<typeof analyseChunk>[]) =>
      chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into document (id, path, filename, media_type, size_bytes, content_hash, status, title, chunk_count, term_count, indexed_at)
         select u.id, u.name, u.name, 'text/plain', u.size, u.hash, 'indexed', u.name, u.chunks, u.terms, now()
         from unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::bigint[]) as u(id, name, size, hash, chunks, terms)`,
        [
          docs.map((d) => d.id),
          docs.map((d) => d.name),
          docs.map((d) => d.chunks.reduce((n, c) => n + c.text.length + 2, 0)),
          docs.map((d) => crypto.createHash('sha256').update(d.id).digest('hex')),
          docs.map((d) => d.chunks.length),
          analysed.map(termCount),
        ],
      );
      const chunks = docs.flatMap((d, i) =>
        d.chunks.map((c, j) => ({ ...c, documentId: d.id, terms: analysed[i]![j]!.length })),
      );
      await tx.query(
        `insert into chunk (id, document_id, position, text, kind, char_start, char_end, token_count, term_count)
         select u.id, u.document_id, u.position, u.text, 'text', 0, length(u.text), u.tokens, u.terms
         from unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::int[], $6::int[]) as u(id, document_id, position, text, tokens, terms)`,
        [
          chunks.map((c) => c.id),
          chunks.map((c) => c.documentId),
          chunks.map((c) => c.position),
          chunks.map((c) => c.text),
          chunks.map((c) => Math.ceil(c.text.split(' ').length * 1.3)),
          chunks.map((c) => c.terms),
        ],
      );
      for (const [i, doc] of docs.entries()) await writePostings(tx, doc.id, analysed[i]!);
    });
  };
  const worker = async () => {
    while (nextDocument < documents) {
      const first = nextDocument;
      const count = Math.min(documentsPerTransaction, documents - first);
      nextDocument += count;
      await writeBatch(first, count);
    }
  };
  await Promise.all(Array.from({ length: transactionsInFlight }, worker));
  const textSeconds = (performance.now() - textStarted) / 1000;
  progress("postings' indexes");
  const indexStarted = performance.now();
  await restorePostingIndexes();
  const postingIndexSeconds = (performance.now() - indexStarted) / 1000;

  progress('vectors and HNSW build');
  const vectorStarted = performance.now();
  const vectorRandom = seededRandom(options.seed + 1);
  const vectors = clusteredSpace(options.vectors, vectorRandom);
  const chunkCount = await writeVectors(db, store, space, () =>
    vectors.point(Math.floor(vectorRandom() * options.vectors.clusters)),
  );
  const { rows: hnsw } = await db.query<{ n: string }>(
    `select count(*) as n from pg_indexes where tablename = 'vector_embedding' and indexdef like '%USING hnsw%'`,
  );
  // The store logs (rather than throws) a failed index build and answers exactly: a bench must not.
  if (Number(hnsw[0]?.n) !== 1) throw new Error('the vector store did not build its HNSW index');
  const vectorSeconds = (performance.now() - vectorStarted) / 1000;

  // What autovacuum would do shortly after a bulk load: statistics for the planner, and the
  // visibility map that lets BM25 scoring read postings by index-only scans.
  progress('vacuum analyze');
  const vacuumStarted = performance.now();
  for (const table of ['document', 'chunk', 'chunk_term', 'term_stats', 'vector_embedding'])
    await db.query(`vacuum (analyze) ${table}`);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;

  const { rows } = await db.query<{ postings: string }>('select count(*) as postings from chunk_term');
  return {
    documents,
    chunks: chunkCount,
    postings: Number(rows[0]?.postings),
    textSeconds,
    postingIndexSeconds,
    vectorSeconds,
    vacuumSeconds,
  };
}

/** Vectors generated and written per statement: a few MB of SQL text, whatever the corpus size. */
const vectorsPerStatement = 2_000;

/**
 * Every chunk's vector, in batches read by keyset from the chunk table, so the process holds one
 * batch at a time (a million 384-d vectors as JS arrays would be gigabytes). All but the last
 * batch go in by SQL into the store's table; the last through the store's own upsert, which then
 * finds its space without an HNSW index and builds it once over all the vectors, as on a first
 * indexing run, instead of inserting them into the graph one by one. Answers the chunks written.
 */
async function writeVectors(
  db: Db,
  store: VectorStoreProvider,
  space: EmbeddingSpace,
  embedding: () => number[],
): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let written = 0;
  for (;;) {
    // One row more than a batch: whether this batch is the last, which goes through the store.
    const { rows } = await db.query<{ id: string; document_id: string }>(
      'select id, document_id from chunk where id > $1 order by id limit $2',
      [after, vectorsPerStatement + 1],
    );
    const last = rows.length <= vectorsPerStatement;
    const batch = last ? rows : rows.slice(0, vectorsPerStatement);
    after = batch[batch.length - 1]!.id;
    const records = batch.map((row) => ({ chunkId: row.id, documentId: row.document_id, embedding: embedding() }));
    written += records.length;
    if (last) {
      await store.upsert(space, records);
      return written;
    }
    await db.query(
      `insert into vector_embedding (space, dimensions, chunk_id, document_id, embedding)
       select $1, $2, u.chunk_id, u.document_id, u.embedding::vector
       from unnest($3::text[], $4::text[], $5::text[]) as u (chunk_id, document_id, embedding)`,
      [
        `${space.model}@${space.dimensions}`,
        space.dimensions,
        records.map((r) => r.chunkId),
        records.map((r) => r.documentId),
        records.map((r) => `[${r.embedding.join(',')}]`),
      ],
    );
  }
}

/**
 * PostgreSQL's advice for populating a database: write the rows, then build the indexes and check
 * the foreign keys once. Postings written a document at a time into chunk_term's btrees, once
 * those outgrow shared_buffers, cost ~25 µs each here (8 million: minutes); rows alone ~1 µs, and
 * the builds afterwards ~30 s. The definitions are read from the catalog and put back verbatim,
 * so the table ends as its migration made it. Answers the function that restores them.
 */
async function dropPostingIndexes(db: Db): Promise<() => Promise<void>> {
  // Primary key first when restoring: the plain indexes and the foreign key do not depend on it, but it is the largest build.
  const { rows: constraints } = await db.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = 'chunk_term'::regclass order by contype = 'p' desc, conname`,
  );
  const { rows: indexes } = await db.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition from pg_index i
     where i.indrelid = 'chunk_term'::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid)`,
  );
  for (const constraint of constraints) await db.query(`alter table chunk_term drop constraint "${constraint.name}"`);
  for (const index of indexes) await db.query(`drop index "${index.name}"`);
  // Document frequencies likewise: counted once at the end, not upserted for every batch of
  // postings (by the trigger that keeps them as documents are indexed one at a time).
  await db.query('alter table chunk_term disable trigger chunk_term_stats_insert');
  // The corpus totals too: the trigger takes term_stats' lock, which would queue the two loading
  // transactions behind each other for their whole length.
  await db.query('alter table document disable trigger document_lexical_corpus');
  return async () => {
    for (const constraint of constraints)
      await db.query(`alter table chunk_term add constraint "${constraint.name}" ${constraint.definition}`);
    for (const index of indexes) await db.query(index.definition);
    await db.transaction(async (tx) => {
      await tx.query('delete from term_stats');
      await tx.query(
        `insert into term_stats (term, df) select t.term, count(*) from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' group by t.term`,
      );
      await tx.query(
        `update lexical_corpus set (chunks, terms) = (select coalesce(sum(chunk_count), 0), coalesce(sum(term_count), 0) from document where status = 'indexed')`,
      );
    });
    await db.query('alter table chunk_term enable trigger chunk_term_stats_insert');
    await db.query('alter table document enable trigger document_lexical_corpus');
  };
}

/** The vocabulary and vector space the corpus was drawn from, for drawing queries from the same distributions. */
export function corpusDistributions(options: CorpusOptions) {
  const vocabulary = zipfVocabulary(options.vocabularySize, seededRandom(options.seed));
  const vectors = clusteredSpace(options.vectors, seededRandom(options.seed + 1));
  return { vocabulary, vectors };
}

/**
 * A database kept by an earlier run (--keep), measured again (--reuse): checks it holds the corpus
 * asked for, and drops its term windows, so that the baseline is measured without them as in a
 * run that loads. Answers null: there is no load to report.
 */
export async function reusedCorpus(db: Db, options: CorpusOptions): Promise<null> {
  const { rows } = await db.query<{ chunks: string; vectors: string }>(
    `select (select count(*) from chunk) as chunks, (select count(*) from vector_embedding) as vectors`,
  );
  const chunks = Number(rows[0]?.chunks);
  if (chunks !== options.chunks || Number(rows[0]?.vectors) !== options.chunks)
    throw new Error(
      `--reuse: the database holds ${chunks} chunks and ${rows[0]?.vectors} vectors, not --chunks ${options.chunks}`,
    );
  await db.transaction(async (tx) => {
    await tx.query('delete from term_window');
    await tx.query('delete from term_window_build');
  });
  return null;
}
