/**
 * The stages of ingestion run alone, each as the `ingest` job runs it, on the same plugins the
 * server started: (a) extraction in the worker pool, rules and chunking; (b) embedding; (c) upsert
 * into the vector store, next to a raw COPY of the same rows; (c′) the chunk rows with their BM25
 * postings and the `indexed` state, the ingest's closing transaction. Results go to files between
 * stages (chunks, then vectors), so memory stays bounded at any corpus size.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import {
  providerTokens,
  type EmbeddingProvider,
  type EmbeddingSpace,
  type ExtractorProvider,
  type VectorRecord,
  type VectorStoreProvider,
} from '@docqa/plugin-api';
import {
  applyRules,
  chunkDocument,
  documentText,
  ExtractionPool,
  type Chunk,
  type MetadataRule,
  type RuleRunner,
} from '@docqa/core';
import type { Kernel } from '@docqa/kernel';
import { chunkId, chunksPerStatement, writeChunkedDocument, type ChunkedDocument } from '@docqa/core/documents';
import { ruleOutcomes } from '@docqa/core/analytics';
import { binaryCopyHeader, binaryCopyTrailer, binaryVectorRow, copyFrom } from './pg-copy.js';
import { CpuMeter, type CpuTime } from './cpu-meter.js';

/** What the pipeline uses (the documents module's ingest.ts and its onWorkerStart). */
const targetTokens = 256;
const ingestConcurrency = 2;

export interface StageResult {
  seconds: number;
  items: number;
  /** CPU time over the same intervals as `seconds`. */
  cpu: CpuTime;
}

const seconds = (start: number) => (performance.now() - start) / 1000;

/**
 * (a) Extraction (worker threads), chunk_boundary rules, chunking and every rule, as IngestPipeline's
 * #chunkWithRules does, two documents at a time like the ingest queue. Writes one JSON line per
 * document: what the ingest's closing transaction stores (see writeChunkedDocument).
 */
export async function extractAndChunk(
  kernel: Kernel,
  files: string[],
  rules: MetadataRule[],
  runner: RuleRunner,
  out: string,
): Promise<StageResult> {
  const values = kernel.config.values;
  const extractor = kernel
    .resolveAll(providerTokens.extractor)
    .find((candidate) => candidate.extensions.includes('.md')) as ExtractorProvider;
  const pool = new ExtractionPool(values.INDEX_EXTRACTION_WORKERS, {
    heapLimitMb: values.INDEX_EXTRACTION_WORKER_HEAP_MB,
    timeoutMs: values.INDEX_EXTRACTION_TIMEOUT_SECONDS * 1000,
  });
  const minChunkLength = Number(kernel.settings.get('RAG_MIN_CHUNK_LENGTH'));
  const boundaryRules = rules.filter((rule) => rule.chunk_boundary);
  const sink = fs.openSync(out, 'w');
  const signal = new AbortController().signal;
  let chunks = 0;
  let next = 0;
  const cpu = new CpuMeter();
  const stopCpu = cpu.start();
  const start = performance.now();
  const work = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const filename = file.split('/').pop()!;
      await extractor.prepareMainThread?.();
      const extracted = await pool.extract(
        extractor.workerModule,
        {
          path: file,
          filename,
          mediaType: 'text/markdown',
          options: { ocr: false, ocrLanguages: [], tables: values.INDEXING_TABLES_ENABLED },
        },
        signal,
      );
      const text = documentText(extracted);
      const { boundaries } = await applyRules(boundaryRules, { filename, text, chunks: [] }, { runner });
      const documentChunks = chunkDocument(extracted, { targetTokens, minChunkLength, boundaries });
      const applied = await applyRules(rules, { filename, text, chunks: documentChunks }, { runner });
      chunks += documentChunks.length;
      const document: ChunkedDocument = {
        id: crypto.randomUUID(),
        chunks: documentChunks,
        chunkMetadata: documentChunks.map((chunk) => ({
          ...applied.document,
          ...(applied.chunks[chunk.index]?.values ?? {}),
        })),
        documentMetadata: { ...extracted.metadata, ...applied.document },
        title: extracted.title ?? null,
        outcomes: ruleOutcomes(rules, applied, documentChunks.length),
        extraction: { text, metadata: extracted.metadata },
      };
      fs.writeSync(sink, `${JSON.stringify(document)}\n`);
    }
  };
  await Promise.all(Array.from({ length: ingestConcurrency }, work));
  stopCpu();
  const result = { seconds: seconds(start), items: chunks, cpu };
  fs.closeSync(sink);
  await pool.close();
  return result;
}

/** Record layout of the vectors file: chunk id and document id (36 ASCII characters each), then the floats. */
const idBytes = 36;

/** (b) Embedding alone, in INDEX_UPSERT_BATCH_SIZE batches per document as the pipeline sends them. */
export async function embedAll(
  kernel: Kernel,
  chunksFile: string,
  out: string,
): Promise<StageResult & { space: EmbeddingSpace }> {
  const embedder = kernel.resolve(providerTokens.embedder) as EmbeddingProvider;
  const batch = kernel.config.values.INDEX_UPSERT_BATCH_SIZE;
  const sink = fs.openSync(out, 'w');
  const signal = new AbortController().signal;
  let items = 0;
  let embedding = 0;
  const cpu = new CpuMeter();
  for await (const line of lines(chunksFile)) {
    const { id: documentId, chunks } = JSON.parse(line) as { id: string; chunks: Chunk[] };
    const texts = chunks.map((chunk) => chunk.text);
    for (let from = 0; from < texts.length; from += batch) {
      // Only the embedding is timed; reading and writing the files are the bench's, not the pipeline's.
      const started = performance.now();
      const vectors = await cpu.around(() => embedder.embed(texts.slice(from, from + batch), signal));
      embedding += performance.now() - started;
      vectors.forEach((vector, offset) => {
        const ids = Buffer.from(chunkId(documentId, from + offset) + documentId, 'latin1');
        fs.writeSync(sink, Buffer.concat([ids, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)]));
      });
      items += vectors.length;
    }
  }
  fs.closeSync(sink);
  return { seconds: embedding / 1000, items, cpu, space: embedder.space };
}

/**
 * (c′) The ingest's closing transaction alone (writeChunkedDocument): chunk rows, their BM25
 * postings, the rules' outcomes and the `indexed` state with its term_stats update, two documents
 * at a time like the ingest queue. The document rows are made first, untimed (uploads and syncs
 * make them before any ingest), and removed afterwards, so the pipeline then starts from the
 * same index.
 */
export async function writeChunksAll(kernel: Kernel, chunksFile: string): Promise<StageResult> {
  const ids: string[] = [];
  for await (const line of lines(chunksFile)) {
    const { id } = JSON.parse(line) as { id: string };
    ids.push(id);
    await kernel.db.query(
      `insert into document (id, path, filename, media_type, size_bytes, content_hash, status, title, chunk_count)
       values ($1, $2, $2, 'text/markdown', 0, $3, 'indexing', $2, 0)`,
      [id, `bench-chunk-rows/${id}.md`, crypto.createHash('sha256').update(id).digest('hex')],
    );
  }
  const batch = chunksPerStatement(kernel.db.mode, kernel.config.values.INDEX_UPSERT_BATCH_SIZE);
  const documents = lines(chunksFile);
  let items = 0;
  const cpu = new CpuMeter();
  const stopCpu = cpu.start();
  const start = performance.now();
  const work = async () => {
    for (let next = await documents.next(); !next.done; next = await documents.next()) {
      const document = JSON.parse(next.value) as ChunkedDocument;
      await kernel.db.transaction((tx) => writeChunkedDocument(tx, document, batch));
      items += document.chunks.length;
    }
  };
  await Promise.all(Array.from({ length: ingestConcurrency }, work));
  stopCpu();
  const result = { seconds: seconds(start), items, cpu };
  // A few documents a statement, as the product deletes (DocumentService.delete): one statement for
  // all of them held the embedded database's one connection past the job queue's 30 s wait.
  for (let from = 0; from < ids.length; from += 32)
    await kernel.db.query('delete from document where id = any($1::uuid[])', [ids.slice(from, from + 32)]);
  return result;
}

/**
 * A file's lines, one read at a time as the consumer asks: readline's async iterator queues up to
 * 1,024 lines while the consumer awaits, here as many documents of chunk texts (about 60 MB).
 */
async function* lines(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const piece of fs.createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    const parts = (rest + piece).split('\n');
    rest = parts.pop() ?? '';
    yield* parts.filter((line) => line.length > 0);
  }
  if (rest.length > 0) yield rest;
}

/** Reads the vectors file back in batches of `batch` records. */
async function* vectorBatches(file: string, dimensions: number, batch: number): AsyncGenerator<VectorRecord[]> {
  const recordBytes = 2 * idBytes + 4 * dimensions;
  const stream = fs.createReadStream(file, { highWaterMark: recordBytes * batch });
  let pending: Buffer = Buffer.alloc(0);
  let records: VectorRecord[] = [];
  for await (const piece of stream as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? piece : Buffer.concat([pending, piece]);
    let at = 0;
    for (; at + recordBytes <= pending.length; at += recordBytes) {
      const embedding = new Float32Array(dimensions);
      Buffer.from(embedding.buffer).set(pending.subarray(at + 2 * idBytes, at + recordBytes));
      records.push({
        chunkId: pending.toString('latin1', at, at + idBytes),
        documentId: pending.toString('latin1', at + idBytes, at + 2 * idBytes),
        embedding,
      });
      if (records.length === batch) {
        yield records;
        records = [];
      }
    }
    pending = pending.subarray(at);
  }
  if (records.length > 0) yield records;
}

/** (c) The vector store's upsert alone: one call per INDEX_UPSERT_BATCH_SIZE chunks, as the pipeline calls it. */
export async function upsertAll(kernel: Kernel, vectorsFile: string, space: EmbeddingSpace): Promise<StageResult> {
  const store = kernel.resolve(providerTokens.vectorStore) as VectorStoreProvider;
  const batch = kernel.config.values.INDEX_UPSERT_BATCH_SIZE;
  let items = 0;
  let writing = 0;
  const cpu = new CpuMeter();
  for await (const records of vectorBatches(vectorsFile, space.dimensions, batch)) {
    const started = performance.now();
    await cpu.around(() => store.upsert(space, records));
    writing += performance.now() - started;
    items += records.length;
  }
  return { seconds: writing / 1000, items, cpu };
}

/**
 * A raw binary COPY of the same rows into the same table, under its own space, after that space got
 * the same HNSW index the store keeps (the store's first upsert creates it): like for like, the
 * bar an upsert is measured against. Through the server's protocol (COPY FROM STDIN) on PostgreSQL;
 * PGlite's adapter cannot carry COPY data, so there the rows go to a file in the database's own
 * directory and PGlite runs COPY FROM that file, timed from the first byte written.
 */
export async function copyAll(
  kernel: Kernel,
  vectorsFile: string,
  space: EmbeddingSpace,
  pgliteDataDir: string | null,
): Promise<StageResult> {
  const store = kernel.resolve(providerTokens.vectorStore) as VectorStoreProvider;
  const first = (await vectorBatches(vectorsFile, space.dimensions, 1).next()).value as VectorRecord[];
  await store.upsert(space, first);
  await kernel.db.query('delete from vector_embedding where space = $1', [`${space.model}@${space.dimensions}`]);
  const key = `${space.model}@${space.dimensions}`;
  async function* rows(): AsyncGenerator<Buffer> {
    yield binaryCopyHeader;
    for await (const records of vectorBatches(vectorsFile, space.dimensions, 1024)) {
      yield Buffer.concat(
        records.map((record) =>
          binaryVectorRow(key, record.chunkId, record.documentId, record.embedding as Float32Array),
        ),
      );
    }
    yield binaryCopyTrailer;
  }
  const columns = 'vector_embedding (space, dimensions, chunk_id, document_id, embedding)';
  const client: pg.PoolClient = await kernel.connection.pool.connect();
  try {
    const cpu = new CpuMeter();
    const stopCpu = cpu.start();
    const start = performance.now();
    let items: number;
    if (pgliteDataDir === null) {
      items = await copyFrom(client, `copy ${columns} from stdin with (format binary)`, rows());
    } else {
      const { rows: found } = await client.query<{ data_directory: string }>('show data_directory');
      const name = `bench-copy-${process.pid}.bin`;
      const sink = fs.openSync(`${pgliteDataDir}/${name}`, 'w');
      for await (const piece of rows()) fs.writeSync(sink, piece);
      fs.closeSync(sink);
      items =
        (await client.query(`copy ${columns} from '${found[0]!.data_directory}/${name}' with (format binary)`))
          .rowCount ?? 0;
      fs.rmSync(`${pgliteDataDir}/${name}`);
    }
    stopCpu();
    return { seconds: seconds(start), items, cpu };
  } finally {
    client.release();
  }
}
