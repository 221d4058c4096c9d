import { defineModule, tokens } from '@docqa/plugin-api';
import { syncQueue, syncQueueOptions } from '../sync/contract.js';
import { schedulesTokens } from './contract.js';
import { scheduleMigrations } from './migrations.js';
import { ScheduleService } from './schedule-service.js';

/**
 * Cron schedules of source syncs (docs/jobs.md). Its table references the sources' table, whose
 * migrations are the application's and run first.
 */
export const schedulesModule = defineModule({
  id: 'schedules',
  deps: { db: tokens.db, jobs: tokens.jobs },
  provides: { service: schedulesTokens.service },
  migrations: scheduleMigrations,
  // It sends to the sync queue: declared here too, so its cron entries have their queue in every process.
  queues: { [syncQueue]: syncQueueOptions },
  init: ({ deps }) => ({ service: new ScheduleService(deps.db, deps.jobs) }),
  // Cron entries live in pg-boss beside the schedule rows; an imported database has only the rows.
  onWorkerStart: async ({ provided }) => void (await provided.service.reconcile()),
});
