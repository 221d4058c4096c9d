import type { QueueOptions } from '@docqa/plugin-api';

// What other code may know of source syncs: the queue a sync is a job of, and that job's data.
// Schedules send to it; the sync worker works it.

export const syncQueue = 'sync';

/** A sync may take hours on a large source; one retry after 30 s for a connection that dropped. */
export const syncQueueOptions: QueueOptions = {
  retryLimit: 1,
  retryDelaySeconds: 30,
  expireInSeconds: 6 * 3600,
  heartbeatSeconds: 30,
};

export interface SyncJobData {
  sourceId: string;
  sourceType: 'connector' | 'integration';
  /** `scan` for connectors, `sync` for integrations: the job kinds of the decisions file. */
  kind: 'scan' | 'sync';
}
