import { createToken, type QueueOptions } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import type { SourceKind, SourceRow } from '../sources/contract.js';

// What other code may know of source syncs: the queue a sync is a job of, that job's data and its
// outcome, and the service that starts syncs and removes sources. Schedules send to the queue too.

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

export interface SyncOutcome {
  upserted: number;
  unchanged: number;
  moved: number;
  deleted: number;
  /** Files DocQA cannot index (type, plan gate, size, plan limits): left out, the sync goes on. */
  skipped: number;
  /** The first skipped files with the reason, so the job says why documents did not arrive. */
  skipped_files: Array<{ path: string; code: string; detail: string }>;
}

/** Starting syncs (one queued per source at a time) and removing sources with their documents. */
export interface SyncService {
  /** The source's unfinished job, or a new one; `conflict` when the source is disabled. */
  start(source: SourceRow, kind: 'scan' | 'sync'): Promise<string>;
  /** A scan or sync of every enabled source, audited as `sync.all`. */
  startAll(principal: Principal, ip: string | undefined): Promise<string[]>;
  /** Cancels the source's jobs, deletes its documents, then the source. */
  deleteSource(kind: SourceKind, id: string): Promise<void>;
  /** Cancels the indexing a cancelled sync queued; its documents are marked failed, saying why. */
  cancelIndexingStartedBy(syncJobId: string): Promise<number>;
}

export const syncTokens = {
  service: createToken<SyncService>('sync.service'),
};
