import type { QueueOptions } from '@docqa/plugin-api';

/** Indexing one document: extract, chunk, embed, write. */
export const ingestQueue = 'ingest';
/** Re-indexing every document, one at a time, while search keeps answering. */
export const rebuildQueue = 'rebuild';

export const ingestQueueOptions: QueueOptions = {
  retryLimit: 2,
  retryDelaySeconds: 10,
  expireInSeconds: 3600,
  heartbeatSeconds: 30,
};
export const rebuildQueueOptions: QueueOptions = { retryLimit: 0, expireInSeconds: 24 * 3600, heartbeatSeconds: 30 };

export interface IngestJobData {
  documentId: string;
  /** The job (a sync) that queued this one: cancelling it cancels this one too. */
  startedBy?: string;
}
