import crypto from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import { DocqaError, pageTotal, type Db, type JobsService } from '@docqa/plugin-api';
import { syncQueue, type SyncJobData } from '../sync/contract.js';
import type { ScheduleInput, SchedulePage, ScheduleView, SchedulesService } from './contract.js';

interface ScheduleRow {
  id: string;
  source_id: string;
  source_type: 'connector' | 'integration';
  cron: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** The next run of a cron expression in UTC (the spec's schedule clock), or a 422 naming `cron`. */
export function nextRun(cron: string, from = new Date()): Date {
  try {
    if (cron.trim().split(/\s+/).length !== 5) throw new Error('use the five fields minute hour day month weekday');
    return CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: from }).next().toDate();
  } catch (error) {
    throw new DocqaError(
      'validation_failed',
      `"${cron}" is not a cron expression DocQA can run: ${(error as Error).message}.`,
      { errors: [{ field: 'body.cron', message: 'is not a valid five-field cron expression' }] },
    );
  }
}

/**
 * Schedules are rows here and cron entries in pg-boss, kept in step: pg-boss sends one sync job per
 * tick whichever replica's clock fires first, so a schedule never runs twice for one tick.
 */
export class ScheduleService implements SchedulesService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsService,
  ) {}

  async #row(id: string): Promise<ScheduleRow> {
    const { rows } = await this.db.query<ScheduleRow>(
      'select s.*, src.kind as source_type from sync_schedule s join ' +
        'source src on src.id = s.source_id where s.id = $1',
      [id],
    );
    if (!rows[0]) throw new DocqaError('not_found', `Schedule ${id} was not found.`);
    return rows[0];
  }

  async #present(row: ScheduleRow): Promise<ScheduleView> {
    const last = await this.jobs.list({ queues: [syncQueue], data: { scheduleId: row.id }, limit: 1, offset: 0 });
    return {
      id: row.id,
      source_type: row.source_type,
      source_id: row.source_id,
      cron: row.cron,
      enabled: row.enabled,
      last_run: last.items[0]?.createdAt.toISOString() ?? null,
      next_run: row.enabled ? nextRun(row.cron).toISOString() : null,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }

  async #apply(row: Pick<ScheduleRow, 'id' | 'source_id' | 'source_type' | 'cron' | 'enabled'>): Promise<void> {
    if (row.enabled) {
      const data: SyncJobData & { scheduleId: string } = {
        sourceId: row.source_id,
        sourceType: row.source_type,
        kind: row.source_type === 'connector' ? 'scan' : 'sync',
        scheduleId: row.id,
      };
      await this.jobs.schedule(syncQueue, row.id, row.cron, data, { group: row.source_id });
    } else {
      await this.jobs.unschedule(syncQueue, row.id);
    }
  }

  async #checkSource(type: string, id: string): Promise<void> {
    const { rowCount } = await this.db.query('select 1 from source where id = $1 and kind = $2', [id, type]);
    if (rowCount === 0)
      throw new DocqaError('validation_failed', `No ${type} ${id} exists.`, {
        errors: [{ field: 'body.source_id', message: `is not a ${type}` }],
      });
  }

  async list(limit: number, offset: number): Promise<SchedulePage> {
    const sql =
      'select s.*, src.kind as source_type, count(*) over () as total from sync_schedule s join ' +
      'source src on src.id = s.source_id order by s.created_at limit $1 offset $2';
    const { rows } = await this.db.query<ScheduleRow & { total: string }>(sql, [limit, offset]);
    const firstRow = async () => (await this.db.query<ScheduleRow & { total: string }>(sql, [1, 0])).rows;
    const total = await pageTotal(rows, offset, (row) => row.total, firstRow);
    return { items: await Promise.all(rows.map((row) => this.#present(row))), total, limit, offset };
  }

  async get(id: string): Promise<ScheduleView> {
    return this.#present(await this.#row(id));
  }

  async create(input: ScheduleInput): Promise<ScheduleView> {
    nextRun(input.cron);
    await this.#checkSource(input.source_type, input.source_id);
    const id = crypto.randomUUID();
    await this.db.query('insert into sync_schedule (id, source_id, cron, enabled) values ($1, $2, $3, $4)', [
      id,
      input.source_id,
      input.cron,
      input.enabled,
    ]);
    await this.#apply({ id, ...input });
    return this.get(id);
  }

  async update(id: string, changes: { cron?: string; enabled?: boolean }): Promise<ScheduleView> {
    const row = await this.#row(id);
    if (changes.cron !== undefined) nextRun(changes.cron);
    const next = {
      ...row,
      ...(changes.cron !== undefined ? { cron: changes.cron } : {}),
      ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
    };
    await this.db.query('update sync_schedule set cron = $2, enabled = $3, updated_at = now() where id = $1', [
      id,
      next.cron,
      next.enabled,
    ]);
    await this.#apply(next);
    return this.get(id);
  }

  /**
   * Writes every schedule's cron entry into pg-boss again. Entries are upserts keyed by the
   * schedule's id, so this is harmless when they are there, and puts them back when the queue's
   * schema is new: a database loaded by docqa import, whose pg-boss state was not carried.
   */
  async reconcile(): Promise<number> {
    const { rows } = await this.db.query<ScheduleRow>(
      'select s.*, src.kind as source_type from sync_schedule s join source src on src.id = s.source_id',
    );
    for (const row of rows) await this.#apply(row);
    return rows.length;
  }

  async delete(id: string): Promise<void> {
    await this.#row(id);
    await this.jobs.unschedule(syncQueue, id);
    await this.db.query('delete from sync_schedule where id = $1', [id]);
  }
}
