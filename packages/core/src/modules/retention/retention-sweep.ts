import type { JobsService, Logger, SettingsService } from '@docqa/plugin-api';
import type { AuditLog } from '../audit/contract.js';
import type { Conversations } from '../chat/contract.js';
import type { Retention, RetentionSweepResult } from './contract.js';

export const retentionQueue = 'retention_sweep';

export interface RetentionDeps {
  jobs: JobsService;
  settings: SettingsService;
  logger: Logger;
  conversations: Conversations;
  audit: AuditLog;
  /** JOB_HISTORY_RETENTION_DAYS. */
  jobHistoryDays: number;
}

/**
 * The daily sweep: conversations without activity for RAG_CONVERSATION_MAX_AGE_DAYS (a runtime
 * setting, read at each run), job history older than JOB_HISTORY_RETENTION_DAYS and audit entries
 * older than RAG_AUDIT_RETENTION_DAYS (through the log's one deleting path, audit_purge). With
 * RETENTION_SWEEPS_ENABLED off nothing is scheduled and nothing is deleted.
 */
export class RetentionSweep implements Retention {
  constructor(private readonly deps: RetentionDeps) {}

  async run(): Promise<RetentionSweepResult> {
    const { settings } = this.deps;
    const result = {
      conversations_deleted: await this.deps.conversations.purgeOlderThan(
        Number(settings.get('RAG_CONVERSATION_MAX_AGE_DAYS')),
      ),
      jobs_deleted: await this.deps.jobs.purgeFinished(this.deps.jobHistoryDays),
      audit_entries_deleted: await this.deps.audit.purgeOlderThan(Number(settings.get('RAG_AUDIT_RETENTION_DAYS'))),
    };
    this.deps.logger.info(result, 'retention sweep done');
    return result;
  }
}
