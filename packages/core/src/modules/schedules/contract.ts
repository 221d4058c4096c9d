import { createToken } from '@docqa/plugin-api';

// What other code may know of the schedules module: its token, its service and the shapes it speaks in.

export interface ScheduleInput {
  source_type: 'connector' | 'integration';
  source_id: string;
  cron: string;
  enabled: boolean;
}

/** A schedule as the API answers it; `next_run` is null while it is disabled. */
export interface ScheduleView {
  id: string;
  source_type: 'connector' | 'integration';
  source_id: string;
  cron: string;
  enabled: boolean;
  last_run: string | null;
  next_run: string | null;
  created_at: string;
  updated_at: string;
}

export interface SchedulePage {
  items: ScheduleView[];
  total: number;
  limit: number;
  offset: number;
}

/** Cron schedules of source syncs: rows in the database, kept in step with pg-boss's cron entries. */
export interface SchedulesService {
  list(limit: number, offset: number): Promise<SchedulePage>;
  /** `not_found` for an unknown id. */
  get(id: string): Promise<ScheduleView>;
  /** 422 naming `cron` or `source_id` when either is wrong. */
  create(input: ScheduleInput): Promise<ScheduleView>;
  update(id: string, changes: { cron?: string; enabled?: boolean }): Promise<ScheduleView>;
  delete(id: string): Promise<void>;
  /** Writes every schedule's cron entry into pg-boss again; answers how many. */
  reconcile(): Promise<number>;
}

export const schedulesTokens = {
  service: createToken<SchedulesService>('schedules.service'),
};
