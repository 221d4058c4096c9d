import { defineModule, tokens } from '@docqa/plugin-api';
import { auditTokens } from '../audit/contract.js';
import { chatTokens } from '../chat/contract.js';
import { retentionTokens } from './contract.js';
import { RetentionSweep, retentionQueue } from './retention-sweep.js';

/** Once a day, at a quiet hour (UTC); any replica may fire it, pg-boss runs each tick once. */
const dailyCron = '17 3 * * *';
const dailySchedule = 'daily';

/**
 * Retention (docs/operations.md): the daily sweep of old conversations, job history and audit
 * entries. Processes that run jobs work its queue and keep its cron entry in step with
 * RETENTION_SWEEPS_ENABLED.
 */
export const retentionModule = defineModule({
  id: 'retention',
  deps: {
    config: tokens.config,
    settings: tokens.settings,
    jobs: tokens.jobs,
    conversations: chatTokens.conversations,
    audit: auditTokens.log,
  },
  provides: { sweep: retentionTokens.sweep },
  queues: { [retentionQueue]: { retryLimit: 1, expireInSeconds: 3600 } },
  init: ({ deps, logger }) => ({
    sweep: new RetentionSweep({
      jobs: deps.jobs,
      settings: deps.settings,
      logger,
      conversations: deps.conversations,
      audit: deps.audit,
      jobHistoryDays: Number(deps.config.get('JOB_HISTORY_RETENTION_DAYS')),
    }),
  }),
  onWorkerStart: async ({ deps, provided }) => {
    await deps.jobs.work(retentionQueue, () => provided.sweep.run());
    if (deps.config.get('RETENTION_SWEEPS_ENABLED') === true)
      await deps.jobs.schedule(retentionQueue, dailySchedule, dailyCron);
    else await deps.jobs.unschedule(retentionQueue, dailySchedule);
  },
});
