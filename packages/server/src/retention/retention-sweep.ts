import type { Kernel } from '@docqa/kernel';
import type { ConversationStore } from '../chat/conversation-store.js';
import type { AuditLog } from '@docqa/core/audit';

export const retentionQueue = 'retention_sweep';
/** Once a day, at a quiet hour (UTC); any replica may fire it, pg-boss runs each tick once. */
const dailyCron = '17 3 * * *';
const scheduleKey = 'daily';

export interface RetentionSweepResult {
  conversations_deleted: number;
  jobs_deleted: number;
  audit_entries_deleted: number;
}

/**
 * The daily sweep: conversations without activity for RAG_CONVERSATION_MAX_AGE_DAYS (a runtime
 * setting, read at each run), job history older than JOB_HISTORY_RETENTION_DAYS and audit entries
 * older than RAG_AUDIT_RETENTION_DAYS (through the log's one deleting path, audit_purge). With
 * RETENTION_SWEEPS_ENABLED off nothing is scheduled and nothing is deleted.
 */
export class RetentionSweep {
  constructor(
    private readonly kernel: Kernel,
    private readonly conversations: ConversationStore,
    private readonly audit: AuditLog,
  ) {}

  async start(): Promise<void> {
    const jobs = this.kernel.jobs;
    await jobs.createQueue(retentionQueue, { retryLimit: 1, expireInSeconds: 3600 });
    await jobs.work(retentionQueue, () => this.run());
    if (this.kernel.config.values.RETENTION_SWEEPS_ENABLED) await jobs.schedule(retentionQueue, scheduleKey, dailyCron);
    else await jobs.unschedule(retentionQueue, scheduleKey);
  }

  async run(): Promise<RetentionSweepResult> {
    const conversationDays = Number(this.kernel.settings.get('RAG_CONVERSATION_MAX_AGE_DAYS'));
    const result = {
      conversations_deleted: await this.conversations.purgeOlderThan(conversationDays),
      jobs_deleted: await this.kernel.jobs.purgeFinished(this.kernel.config.values.JOB_HISTORY_RETENTION_DAYS),
      audit_entries_deleted: await this.audit.purgeOlderThan(
        Number(this.kernel.settings.get('RAG_AUDIT_RETENTION_DAYS')),
      ),
    };
    this.kernel.logger.info(result, 'retention sweep done');
    return result;
  }
}
