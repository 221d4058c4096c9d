import path from 'node:path';
import {
  defaultMaxTextCharacters,
  DocqaError,
  type ExtractedDocument,
  type JobContext,
  type Logger,
} from '@docqa/plugin-api';
import type { DocumentsEnvironment } from './environment.js';
import {
  applyRules,
  chunkDocument,
  describeRuleFailures,
  documentLayout,
  documentText,
  ExtractionPool,
  type Chunk,
  type MetadataRule,
} from '../../index.js';
import type { RulesService } from '../rules/contract.js';
import type { DocumentService } from './document-service.js';
import type { IngestJobData } from './queues.js';
import type { DocumentRow } from './document-repository.js';
import { chunkId, chunksPerStatement, writeChunkedDocument } from './index-writer.js';
import { flushVectorDeletions } from './vector-deletions.js';
import { languageDetector } from '../search/contract.js';
import { ruleOutcomes } from '../analytics/contract.js';
import type { CurrentModels } from '../models/contract.js';
import { noIngestObserver, type IngestObserver } from '../metrics/contract.js';

/** Tokens a chunk aims for; about a paragraph or two, what small embedding models handle well. */
const targetTokens = 256;

/**
 * The `ingest` job: extract (in worker threads), chunk, embed, write vectors, then the chunks and
 * the document's `indexed` state in one transaction. Until that commit the document is not
 * `indexed`, and a retry starts over from the stored bytes, so a crash leaves no half-indexed
 * document and no duplicate.
 */
export class IngestPipeline {
  readonly #pool: ExtractionPool;
  readonly #logger: Logger;

  constructor(
    private readonly env: DocumentsEnvironment,
    private readonly documents: DocumentService,
    private readonly rules: RulesService,
    private readonly models: CurrentModels,
    private readonly observer: IngestObserver = noIngestObserver,
  ) {
    const values = env.config;
    this.#pool = new ExtractionPool(values.INDEX_EXTRACTION_WORKERS, {
      heapLimitMb: values.INDEX_EXTRACTION_WORKER_HEAP_MB,
      timeoutMs: values.INDEX_EXTRACTION_TIMEOUT_SECONDS * 1000,
    });
    this.#logger = env.logger.child({ component: 'ingest' });
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  async run(job: JobContext<IngestJobData>): Promise<{ chunks: number } | { skipped: string }> {
    const document = await this.documents.repository.claimForIndexing(job.data.documentId);
    if (!document) return { skipped: 'the document was deleted' };
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const chunks = await this.#index(document, job);
      this.observer.attemptEnded({
        outcome: 'indexed',
        seconds: seconds(),
        chunks,
        sourceBytes: Number(document.size_bytes),
      });
      return { chunks };
    } catch (error) {
      this.observer.attemptEnded({
        outcome: job.signal.aborted ? 'cancelled' : 'failed',
        seconds: seconds(),
        chunks: 0,
        sourceBytes: 0,
      });
      // Deleted while indexed: vectors this run wrote after the deletion swept are queued again.
      if (!(await this.documents.repository.byId(document.id))) {
        await this.env.db.query('insert into vector_deletion (document_id) values ($1) on conflict do nothing', [
          document.id,
        ]);
        await flushVectorDeletions(this.env, [document.id]).catch(() => undefined);
        return { skipped: 'the document was deleted' };
      }
      const message = job.signal.aborted ? 'Indexing was cancelled.' : (error as Error).message;
      await this.#setStatus(document.id, 'failed', message);
      // A file that cannot be read stays failed; anything else (database, model server) is retried.
      if (DocqaError.is(error) && error.status < 500) {
        this.#logger.warn({ document_id: document.id, code: error.code }, `indexing failed: ${message}`);
        return { skipped: message };
      }
      throw error;
    }
  }

  async #index(document: DocumentRow, job: JobContext<IngestJobData>): Promise<number> {
    const v = this.env.config;
    // The rules are read while the file is extracted: every wait before the
    // embedding request is time the model may idle.
    const [rules, extracted] = await Promise.all([
      document.source_id ? this.rules.rulesOf(document.source_id) : [],
      this.extract(document, job.signal),
    ]);
    const text = documentText(extracted);
    const minChunkLength = Number(this.env.settings.get('RAG_MIN_CHUNK_LENGTH'));
    const { chunks, chunkMetadata, documentMetadata, outcomes, ruleFailures } = await this.#chunkWithRules(
      document,
      rules,
      extracted,
      text,
      minChunkLength,
    );
    await this.#writeVectors(document.id, chunks, job);
    if (text.length > defaultMaxTextCharacters)
      this.#logger.warn(
        { document_id: document.id, characters: text.length },
        'the extracted text is too large to keep; a metadata refresh of this document uses its chunks',
      );
    const extraction =
      text.length > defaultMaxTextCharacters
        ? null
        : { text, metadata: extracted.metadata, layout: documentLayout(extracted) };
    await this.env.db.transaction((tx) =>
      writeChunkedDocument(
        tx,
        {
          id: document.id,
          chunks,
          chunkMetadata,
          documentMetadata,
          title: extracted.title ?? null,
          outcomes,
          extraction,
          ruleFailures,
        },
        chunksPerStatement(this.env.db.mode, v.INDEX_UPSERT_BATCH_SIZE),
        languageDetector(v.INDEX_LANGUAGES),
      ),
    );
    await job.progress(chunks.length, chunks.length);
    this.#logger.info({ document_id: document.id, chunks: chunks.length }, 'document indexed');
    return chunks.length;
  }

  /** Extracts a document from its stored bytes in a worker thread (a metadata refresh uses it too). */
  async extract(
    document: Pick<DocumentRow, 'filename' | 'media_type' | 'content_hash'>,
    signal: AbortSignal,
  ): Promise<ExtractedDocument> {
    const v = this.env.config;
    const extension = path.extname(document.filename).toLowerCase();
    const extractors = this.env.extractors;
    // By extension, else by the media type stored with the document (a source's path may have none).
    const extractor =
      extractors.find((candidate) => candidate.extensions.includes(extension)) ??
      extractors.find((candidate) => candidate.mediaTypes.includes(document.media_type));
    if (!extractor)
      throw new DocqaError(
        'unsupported_media_type',
        `No extractor reads ${extension} files any more; ${document.filename} cannot be indexed.`,
      );
    await extractor.prepareMainThread?.();
    return this.#pool.extract(
      extractor.workerModule,
      {
        path: this.documents.blobs.pathOf(document.content_hash),
        filename: document.filename,
        mediaType: document.media_type,
        options: {
          ocr: v.INDEXING_OCR_ENABLED,
          ocrLanguages: v.INDEXING_OCR_LANGUAGES,
          tables: v.INDEXING_TABLES_ENABLED,
        },
      },
      signal,
    );
  }

  /**
   * The source's metadata rules (spec 2.4) shape and tag the chunks: chunk_boundary matches become
   * split points before chunking, then every rule fills document and chunk values, chunk-level ones
   * inherited by later chunks. A rule that fails (bad pattern, CPU budget) is skipped, and said so on
   * the document.
   */
  async #chunkWithRules(
    document: DocumentRow,
    rules: MetadataRule[],
    extracted: ExtractedDocument,
    text: string,
    minChunkLength: number,
  ) {
    if (rules.length === 0) {
      const chunks = chunkDocument(extracted, { targetTokens, minChunkLength });
      return {
        chunks,
        chunkMetadata: [] as Array<Record<string, string>>,
        documentMetadata: extracted.metadata,
        outcomes: [],
        ruleFailures: null,
      };
    }
    const boundaryRules = rules.filter((rule) => rule.chunk_boundary);
    const { boundaries } = boundaryRules.length
      ? await applyRules(
          boundaryRules,
          { filename: document.filename, text, chunks: [] },
          { runner: this.rules.runner },
        )
      : { boundaries: [] };
    const chunks = chunkDocument(extracted, { targetTokens, minChunkLength, boundaries });
    const applied = await applyRules(
      rules,
      { filename: document.filename, text, chunks },
      { runner: this.rules.runner },
    );
    for (const failure of applied.failures)
      this.#logger.warn(
        { document_id: document.id, rule_id: failure.ruleId },
        `metadata rule skipped: ${failure.error}`,
      );
    return {
      chunks,
      chunkMetadata: chunks.map((chunk) => ({ ...applied.document, ...(applied.chunks[chunk.index]?.values ?? {}) })),
      documentMetadata: { ...extracted.metadata, ...applied.document },
      outcomes: ruleOutcomes(rules, applied, chunks.length),
      ruleFailures: describeRuleFailures(rules, applied.failures),
    };
  }

  /**
   * Embeds and stores vectors batch by batch (bounded memory: two batches at most); without an
   * embedder, lexical only. The next batch embeds while this one is written, and the first while
   * the old vectors are deleted and the job's progress is set: the model and the database work
   * side by side, and the model gets its texts before anything waits for the database.
   */
  async #writeVectors(documentId: string, chunks: Chunk[], job: JobContext<IngestJobData>): Promise<void> {
    const store = this.env.vectorStore ?? null;
    // The embedder chosen with `docqa models use`, else the configured one; its space tags every vector.
    const embedder = store ? this.models.embedder() : null;
    if (!store || !embedder) {
      await Promise.all([job.progress(0, chunks.length), store?.deleteDocuments([documentId])]);
      return;
    }
    const batch = this.env.config.INDEX_UPSERT_BATCH_SIZE;
    const embedFrom = (start: number) =>
      embedder.embed(
        chunks.slice(start, start + batch).map((chunk) => chunk.text),
        job.signal,
      );
    let embedding = embedFrom(0);
    try {
      await Promise.all([job.progress(0, chunks.length), store.deleteDocuments([documentId])]);
      for (let start = 0; start < chunks.length; start += batch) {
        job.signal.throwIfAborted();
        const vectors = await embedding;
        if (start + batch < chunks.length) embedding = embedFrom(start + batch);
        const part = chunks.slice(start, start + batch);
        await store.upsert(
          embedder.space,
          part.map((chunk, i) => ({
            chunkId: chunkId(documentId, chunk.index),
            documentId,
            embedding: vectors[i] as Float32Array,
          })),
        );
        // The last batch's count is set once the chunks are committed (#index).
        if (start + part.length < chunks.length) await job.progress(start + part.length, chunks.length);
      }
    } catch (error) {
      // A batch still embedding when writing failed is not awaited any more: its failure is this one's.
      embedding.catch(() => undefined);
      throw error;
    }
  }

  async #setStatus(id: string, status: DocumentRow['status'], error: string | null): Promise<void> {
    await this.env.db.query('update document set status = $2, error = $3, updated_at = now() where id = $1', [
      id,
      status,
      error,
    ]);
  }
}
