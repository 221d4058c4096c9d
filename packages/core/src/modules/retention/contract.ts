import { createToken } from '@docqa/plugin-api';

// What other code may know of the retention module: the sweep, run daily or on demand.

export interface RetentionSweepResult {
  conversations_deleted: number;
  jobs_deleted: number;
  audit_entries_deleted: number;
}

export interface Retention {
  /** One sweep now, as the daily job runs it. */
  run(): Promise<RetentionSweepResult>;
}

export const retentionTokens = {
  sweep: createToken<Retention>('retention.sweep'),
};
