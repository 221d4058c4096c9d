import type { Kernel } from '@docqa/kernel';
import type { AppServices } from './services.js';
import { ingestQueue, type IngestJobData } from './documents/document-service.js';
import { IngestPipeline } from './documents/ingest.js';
import { rebuildQueue } from './documents/index-service.js';
import { SourceSync, syncQueue, type SyncJobData } from './sources/sync.js';
import { metadataRefreshQueue, refreshMetadata, type MetadataRefreshData } from './rules/refresh.js';
import { RetentionSweep } from './retention/retention-sweep.js';

/**
 * The background work of this process: every queue with its options and handler. Each replica
 * runs these; pg-boss hands every job to exactly one of them.
 */
export async function startWorkers(kernel: Kernel, services: AppServices): Promise<{ close(): Promise<void> }> {
  const jobs = kernel.jobs;
  const ingest = new IngestPipeline(kernel, services.documents, services.rules);
  const sync = new SourceSync(kernel, services.sources, services.documents);

  await jobs.createQueue(ingestQueue, { retryLimit: 2, retryDelaySeconds: 10, expireInSeconds: 3600, heartbeatSeconds: 30 });
  await jobs.work<IngestJobData>(ingestQueue, (job) => ingest.run(job), { concurrency: 2 });
  await jobs.createQueue(rebuildQueue, { retryLimit: 0, expireInSeconds: 24 * 3600, heartbeatSeconds: 30 });
  await jobs.work<{ requestedBy: string }>(rebuildQueue, (job) => services.index.rebuild(job, ingest));
  await jobs.createQueue(syncQueue, { retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 6 * 3600, heartbeatSeconds: 30 });
  await jobs.work<SyncJobData>(syncQueue, (job) => sync.run(job), { concurrency: 2 });
  await jobs.createQueue(metadataRefreshQueue, { retryLimit: 1, expireInSeconds: 6 * 3600, heartbeatSeconds: 30 });
  await jobs.work<MetadataRefreshData>(metadataRefreshQueue, (job) => refreshMetadata(kernel, services.rules, job));
  await new RetentionSweep(kernel, services.chat.conversations, services.audit).start();
  // Documents accepted just before a crash, never queued: queue them now that the workers run.
  await services.documents.requeueOrphans();

  return {
    async close() {
      await Promise.all([ingest.close(), services.rules.close()]);
    },
  };
}
