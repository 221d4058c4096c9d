import { defineModule, optional, providerTokens, tokens, type ConfigService, type Logger } from '@docqa/plugin-api';
import { groupsTokens } from '../groups/contract.js';
import { licenseTokens } from '../license/contract.js';
import { metricsTokens, noIngestObserver } from '../metrics/contract.js';
import { modelsTokens } from '../models/contract.js';
import { metadataRefreshQueue, rulesTokens, type MetadataRefreshData } from '../rules/contract.js';
import { sourcesTokens } from '../sources/contract.js';
import { documentsTokens } from './contract.js';
import { ingestQueue, ingestQueueOptions, rebuildQueue, rebuildQueueOptions, type IngestJobData } from './queues.js';
import { DocumentService } from './document-service.js';
import type { DocumentsEnvironment, IndexingConfig } from './environment.js';
import { IndexService } from './index-service.js';
import { IngestPipeline } from './ingest.js';
import { refreshMetadata } from './metadata-refresh.js';
import { documentMigrations } from './migrations.js';
import { startVectorDeletionSweep } from './vector-deletions.js';

const deps = {
  db: tokens.db,
  jobs: tokens.jobs,
  config: tokens.config,
  settings: tokens.settings,
  extractors: providerTokens.extractor,
  vectorStore: optional(providerTokens.vectorStore),
  license: licenseTokens.service,
  groups: groupsTokens.service,
  sources: sourcesTokens.service,
  rules: rulesTokens.service,
  models: modelsTokens.current,
  metrics: optional(metricsTokens.service),
};

function indexingConfig(config: ConfigService): IndexingConfig {
  return {
    INDEX_EXTRACTION_WORKERS: Number(config.get('INDEX_EXTRACTION_WORKERS')),
    INDEX_EXTRACTION_WORKER_HEAP_MB: Number(config.get('INDEX_EXTRACTION_WORKER_HEAP_MB')),
    INDEX_EXTRACTION_TIMEOUT_SECONDS: Number(config.get('INDEX_EXTRACTION_TIMEOUT_SECONDS')),
    INDEX_UPSERT_BATCH_SIZE: Number(config.get('INDEX_UPSERT_BATCH_SIZE')),
    INDEX_LANGUAGES: config.get('INDEX_LANGUAGES') as string[],
    INDEXING_OCR_ENABLED: config.get('INDEXING_OCR_ENABLED') === true,
    INDEXING_OCR_LANGUAGES: config.get('INDEXING_OCR_LANGUAGES') as string[],
    INDEXING_TABLES_ENABLED: config.get('INDEXING_TABLES_ENABLED') === true,
  };
}

function environment(
  resolved: Pick<DocumentsEnvironment, 'db' | 'jobs' | 'settings' | 'extractors' | 'vectorStore' | 'license'> & {
    config: ConfigService;
  },
  logger: Logger,
): DocumentsEnvironment {
  const { db, jobs, settings, extractors, vectorStore, license, config } = resolved;
  return {
    db,
    jobs,
    settings,
    extractors,
    vectorStore,
    license,
    logger,
    dataDir: config.dataDir,
    config: indexingConfig(config),
  };
}

/**
 * Documents (docs/documents-and-sources.md): uploads, lists, moves and deletes, the blob store, and
 * indexing: extraction in worker threads, chunking with the sources' metadata rules, embedding,
 * the lexical postings and vectors. Processes that run jobs work the ingest, rebuild and metadata
 * refresh queues, sweep the vectors of deleted documents, and queue what a crash left unqueued.
 */
export const documentsModule = defineModule({
  id: 'documents',
  deps,
  provides: { service: documentsTokens.service, index: documentsTokens.index },
  migrations: documentMigrations,
  queues: { [ingestQueue]: ingestQueueOptions, [rebuildQueue]: rebuildQueueOptions },
  init: ({ deps: resolved, logger }) => {
    const env = environment(resolved, logger);
    return {
      service: new DocumentService(env, resolved.groups, resolved.sources),
      index: new IndexService(env, resolved.models),
    };
  },
  /**
   * Fairness: ingest jobs carry their source's id as their group ("uploads" for uploads). A group
   * may hold all ingest slots of a process but one, so the documents of a small source start
   * beside a big sync instead of after it. A lone source gets one slot per extraction thread and at
   * least four, plus that one kept for the others: a document is extracted, then embedded, then
   * written, and with four in flight one embeds, one waits for the model, one is written and one
   * starts. bench:ingest at 20,831 chunks on the embedded database, whole pipeline alone: with three,
   * the model had no text for 24 s of 499 (the next document's first queries waited for the writes);
   * with four, 8 s of 474, and peak RSS 384 MB against 382.
   */
  onWorkerStart: async ({ deps: resolved, logger, provided, onStop }) => {
    const env = environment(resolved, logger);
    const ingest = new IngestPipeline(
      env,
      provided.service,
      resolved.rules,
      resolved.models,
      resolved.metrics?.ingest ?? noIngestObserver,
    );
    onStop(() => ingest.close());
    const ingestSlots = Math.max(4, env.config.INDEX_EXTRACTION_WORKERS) + 1;
    await env.jobs.work<IngestJobData>(ingestQueue, (job) => ingest.run(job), {
      concurrency: ingestSlots,
      groupConcurrency: ingestSlots - 1,
    });
    await env.jobs.work<{ requestedBy: string }>(rebuildQueue, (job) => provided.index.rebuild(job, ingest));
    await env.jobs.work<MetadataRefreshData>(metadataRefreshQueue, (job) =>
      refreshMetadata(env, resolved.rules, job, (document, signal) => ingest.extract(document, signal)),
    );
    // Vectors of documents deleted before a crash or while the vector store was down.
    const vectorDeletions = startVectorDeletionSweep(env, logger.child({ component: 'vector-deletions' }));
    onStop(() => vectorDeletions.stop());
    // Documents accepted just before a crash, never queued: queue them now that the workers run.
    await provided.service.requeueOrphans();
  },
});
