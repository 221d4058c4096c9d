import { defineModule, tokens } from '@docqa/plugin-api';
import { documentsTokens } from '../documents/contract.js';
import { sourcesTokens } from '../sources/contract.js';
import { syncQueue, syncQueueOptions, syncTokens, type SyncJobData } from './contract.js';
import { SourceSync } from './source-sync.js';
import { SourceSyncs } from './sync-service.js';

/**
 * Source syncs (docs/documents-and-sources.md): a connector's scan or an integration's sync pulls the
 * changes since the stored cursor, stores new bytes and queues them for indexing. Processes that run
 * jobs work the sync queue: two sources side by side, one source never twice at once.
 */
export const syncModule = defineModule({
  id: 'sync',
  deps: {
    db: tokens.db,
    jobs: tokens.jobs,
    audit: tokens.audit,
    sources: sourcesTokens.service,
    documents: documentsTokens.service,
  },
  provides: { service: syncTokens.service },
  queues: { [syncQueue]: syncQueueOptions },
  init: ({ deps }) => ({ service: new SourceSyncs(deps, deps.sources, deps.documents) }),
  onWorkerStart: async ({ deps, logger }) => {
    const sync = new SourceSync({ db: deps.db, jobs: deps.jobs, logger }, deps.sources, deps.documents);
    await deps.jobs.work<SyncJobData>(syncQueue, (job) => sync.run(job), { concurrency: 2, groupConcurrency: 1 });
  },
});
