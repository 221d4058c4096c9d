import type { Kernel } from '@docqa/kernel';
import type { JobsService, QueueOptions } from '@docqa/plugin-api';
import type { AppServices } from './services.js';
import { ingestQueue, type IngestJobData } from './documents/document-service.js';
import { IngestPipeline } from './documents/ingest.js';
import { startVectorDeletionSweep } from './documents/vector-deletions.js';
import { rebuildQueue } from './documents/index-service.js';
import { SourceSync } from './sources/sync.js';
import { syncQueue, syncQueueOptions, type SyncJobData } from '@docqa/core/sync';
import { refreshMetadata } from './rules/refresh.js';
import { metadataRefreshQueue, type MetadataRefreshData } from '@docqa/core/rules';

/** Every queue with its options, declared by every process: API processes send to them too. */
const queues: Record<string, QueueOptions> = {
  [ingestQueue]: { retryLimit: 2, retryDelaySeconds: 10, expireInSeconds: 3600, heartbeatSeconds: 30 },
  [rebuildQueue]: { retryLimit: 0, expireInSeconds: 24 * 3600, heartbeatSeconds: 30 },
  [syncQueue]: syncQueueOptions,
};

export async function declareQueues(jobs: JobsService): Promise<void> {
  for (const [name, options] of Object.entries(queues)) await jobs.createQueue(name, options);
}

/**
 * The background work of a worker process (DOCQA_ROLE worker or all): a handler for every queue,
 * the retention sweep and the cron clock. pg-boss hands every job to exactly one process.
 *
 * Fairness: ingest and sync jobs carry their source's id as their group ("uploads" for uploads).
 * A group may hold all ingest slots of a process but one, so the documents of a small source start
 * beside a big sync instead of after it. A lone source gets one slot per extraction thread and at
 * least four, plus that one kept for the others: a document is extracted, then embedded, then
 * written, and with four in flight one embeds, one waits for the model, one is written and one
 * starts. bench:ingest at 20,831 chunks on the embedded database, whole pipeline alone: with three,
 * the model had no text for 24 s of 499 (the next document's first queries waited for the writes);
 * with four, 8 s of 474, and peak RSS 384 MB against 382.
 */
export async function startWorkers(kernel: Kernel, services: AppServices): Promise<{ close(): Promise<void> }> {
  const jobs = kernel.jobs;
  const ingest = new IngestPipeline(
    kernel,
    services.documents,
    services.rules,
    services.models,
    services.metrics.ingest,
  );
  const sync = new SourceSync(kernel, services.sources, services.documents);
  const ingestSlots = Math.max(4, kernel.config.values.INDEX_EXTRACTION_WORKERS) + 1;

  await jobs.work<IngestJobData>(ingestQueue, (job) => ingest.run(job), {
    concurrency: ingestSlots,
    groupConcurrency: ingestSlots - 1,
  });
  await jobs.work<{ requestedBy: string }>(rebuildQueue, (job) => services.index.rebuild(job, ingest));
  // Two sources sync side by side; one source never twice at once (see SourceSync.run).
  await jobs.work<SyncJobData>(syncQueue, (job) => sync.run(job), { concurrency: 2, groupConcurrency: 1 });
  await jobs.work<MetadataRefreshData>(metadataRefreshQueue, (job) =>
    refreshMetadata(kernel, services.rules, job, (document, signal) => ingest.extract(document, signal)),
  );
  // Vectors of documents deleted before a crash or while the vector store was down.
  const vectorDeletions = startVectorDeletionSweep(kernel, kernel.logger.child({ component: 'vector-deletions' }));
  // Documents accepted just before a crash, never queued: queue them now that the workers run.
  await services.documents.requeueOrphans();

  return {
    async close() {
      vectorDeletions.stop();
      await ingest.close();
    },
  };
}
