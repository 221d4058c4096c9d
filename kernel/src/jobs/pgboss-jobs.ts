import pg from 'pg';
import { PgBoss, type Db as IDatabase, type Job, type JobResult, type JobWithMetadata } from 'pg-boss';
import {
  DocqaError,
  pageTotal,
  type JobContext,
  type JobInfo,
  type JobActivity,
  type JobListFilter,
  type JobRunEvent,
  type JobRunOutcome,
  type JobState,
  type JobsService,
  type UnfinishedJobCount,
  type Logger,
  type QueueOptions,
  type SendOptions,
  type SqlExecutor,
  type WorkOptions,
} from '@docqa/plugin-api';
import { withoutStatementLimits } from '../db/statement-limits.js';
import type { DatabaseConnection } from '../db/pool.js';

/**
 * The JobsService facade: the only code in DocQA that imports pg-boss. pg-boss keeps its queues in
 * the `pgboss` schema of the same database, in both modes.
 *
 * With `runsJobs` off (an API-only process, DOCQA_ROLE=api) it sends, lists and cancels jobs and
 * writes schedules, but runs no handlers, no maintenance and no cron clock: worker processes do.
 */
export class PgBossJobs implements JobsService, JobActivity {
  readonly #boss: PgBoss;
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #running = new Map<string, AbortController>();
  readonly #shutdown = new AbortController();
  readonly #listeners = new Set<(event: JobRunEvent) => void>();
  #started = false;
  readonly #embedded: boolean;
  readonly #runsJobs: boolean;

  constructor(connection: DatabaseConnection, logger: Logger, options: { poolSize: number; runsJobs: boolean }) {
    this.#pool = connection.pool;
    this.#embedded = connection.mode === 'embedded';
    this.#runsJobs = options.runsJobs;
    this.#logger = logger.child({ component: 'jobs' });
    // supervise: failing jobs whose worker died (heartbeat) or ran too long; schedule: the cron clock.
    const common = { schema: 'pgboss', migrate: true, supervise: options.runsJobs, schedule: options.runsJobs };
    // On a server pg-boss keeps a pool of its own (and LISTEN/NOTIFY); the embedded database has
    // one connection, so pg-boss must queue behind everybody else on the application pool.
    this.#boss =
      connection.mode === 'server' && connection.url
        ? new PgBoss({
            ...common,
            connectionString: connection.url,
            max: options.poolSize,
            application_name: 'docqa-jobs',
          })
        : new PgBoss({ ...common, db: poolAdapter(connection.pool), backend: 'pglite' });
    this.#boss.on('error', (error: Error) => this.#logger.error({ err: error }, 'job queue error'));
  }

  async start(): Promise<void> {
    await this.#boss.start();
    this.#started = true;
  }

  /** Stops taking jobs, waits for running ones up to `timeoutMs`, then aborts what remains. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    const deadline = setTimeout(
      () => this.#shutdown.abort(new DocqaError('unavailable', 'DocQA is shutting down')),
      timeoutMs,
    );
    try {
      await this.#boss.stop({ graceful: true, timeout: timeoutMs + 1000, close: true });
    } finally {
      clearTimeout(deadline);
      this.#shutdown.abort();
    }
  }

  /** Started and not stopping: the queue is taking and running jobs. */
  isRunning(): boolean {
    return this.#started;
  }

  runningCount(): number {
    return this.#running.size;
  }

  /** Calls `listener` as jobs of this process start and end; answers the function that stops it. */
  onJobRun(listener: (event: JobRunEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: JobRunEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.warn({ err: error }, 'a job run listener failed');
      }
    }
  }

  /**
   * Queued and running jobs of every queue (zero for an idle one), across every replica, in one
   * grouped count. Only unfinished states are read (pg-boss's state enum orders them before
   * `completed`), and a plain read takes no locks that could hold up a job.
   */
  async countUnfinished(): Promise<UnfinishedJobCount[]> {
    const { rows } = await this.#pool.query<{ name: string; state: string | null; n: number }>(
      `select q.name, j.state::text as state, count(j.id)::int as n
         from pgboss.queue q left join pgboss.job j on j.name = q.name and j.state < 'completed'
        group by q.name, j.state`,
    );
    const counts = new Map<string, UnfinishedJobCount>();
    for (const row of rows) {
      const queue = counts.get(row.name) ?? { queue: row.name, queued: 0, running: 0 };
      counts.set(row.name, queue);
      if (row.state === 'active') queue.running += Number(row.n);
      else if (row.state !== null) queue.queued += Number(row.n); // created or retry
    }
    return [...counts.values()];
  }

  async createQueue(name: string, options: QueueOptions = {}): Promise<void> {
    const existing = await this.#boss.getQueue(name);
    const queueOptions = {
      retryLimit: options.retryLimit ?? 2,
      retryDelay: options.retryDelaySeconds ?? 5,
      retryBackoff: true,
      expireInSeconds: options.expireInSeconds ?? 3600,
      // Job history is kept for JOB_HISTORY_RETENTION_DAYS and deleted by DocQA's retention sweep
      // (purgeFinished), which RETENTION_SWEEPS_ENABLED can turn off; pg-boss must not delete it first.
      deleteAfterSeconds: 0,
      ...(options.heartbeatSeconds ? { heartbeatSeconds: options.heartbeatSeconds } : {}),
    };
    if (existing) {
      const { heartbeatSeconds: _fixedAtCreation, ...updatable } = queueOptions;
      await this.#boss.updateQueue(name, updatable);
    } else {
      await this.#boss.createQueue(name, queueOptions);
    }
  }

  async send<D extends object>(queue: string, data: D, options: SendOptions = {}): Promise<string> {
    if (options.tx && this.#embedded) {
      // pg-boss reads its queue table outside the transaction, and the embedded database's one
      // connection is held by it: that would wait forever. Say so instead.
      throw new DocqaError(
        'internal',
        'Sending a job inside a transaction needs a PostgreSQL server; on the ' +
          `embedded database send to ${queue} after the commit.`,
      );
    }
    const id = await this.#boss.send(queue, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.group ? { group: { id: options.group } } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.tx ? { db: executorAdapter(options.tx) } : {}),
    });
    if (id === null) {
      throw new DocqaError(
        'conflict',
        `A job with key '${options.singletonKey}' is already waiting in queue ${queue}.`,
      );
    }
    return id;
  }

  async work<D extends object>(
    queue: string,
    handler: (job: JobContext<D>) => Promise<unknown>,
    options: WorkOptions = {},
  ): Promise<void> {
    if (!this.#runsJobs)
      throw new DocqaError('internal', `This process only sends jobs (DOCQA_ROLE=api); it runs no ${queue} jobs.`);
    let slots: string[] = [];
    const workId = await this.#boss.work<D>(
      queue,
      {
        // One fetching worker per slot, one job per fetch: a slot that frees up fetches on its own
        // and can take another group's job. (Batches would fill every slot with the oldest jobs,
        // all of one source, and wait for the whole batch.)
        localConcurrency: options.concurrency ?? 1,
        batchSize: 1,
        pollingIntervalSeconds: 1,
        // A cancel from another replica reaches the handler at the next heartbeat refresh: every 2 s
        // instead of pg-boss's half a heartbeat (15 s for our 30 s). No refresh on queues without one.
        heartbeatRefreshSeconds: 2,
        perJobResults: true,
        // A group at its limit is left out of the fetch, so the slot takes another group's job.
        // Counted in this process, which is exact; pg-boss's cluster-wide count is not (two
        // replicas fetching at the same moment both see the group below its limit).
        ...(options.groupConcurrency ? { localGroupConcurrency: options.groupConcurrency } : {}),
      },
      async ([job]: Array<Job<D>>) => {
        const result = await this.#runOne(job as Job<D>, handler);
        // Fetch again at once rather than after the polling interval, so a backlog runs back to
        // back. pg-boss does not say which slot ran the job, so every slot of the queue is woken:
        // a busy one skips its next pause, an idle one fetches once and, finding nothing, polls again.
        for (const slot of slots) this.#boss.notifyWorker(slot);
        return [result];
      },
    );
    slots = this.#boss
      .getWipData()
      .filter((worker) => worker.workId === workId)
      .map((worker) => worker.id);
  }

  async #runOne<D>(job: Job<D>, handler: (job: JobContext<D>) => Promise<unknown>): Promise<JobResult> {
    // A job's signal aborts on cancel (seen by pg-boss's heartbeat on any replica) and on shutdown.
    const controller = new AbortController();
    this.#running.set(job.id, controller);
    const started = performance.now();
    let outcome: JobRunOutcome = 'succeeded';
    this.#emit({ type: 'started', queue: job.name, data: job.data });
    try {
      // A job's statements have no request's statement_timeout, even when a request woke its worker.
      const output = await withoutStatementLimits(() =>
        handler({
          id: job.id,
          data: job.data,
          signal: AbortSignal.any([job.signal, this.#shutdown.signal, controller.signal]),
          progress: (done, total) => this.#recordProgress(job.id, done, total),
        }),
      );
      return { id: job.id, status: 'completed', output: (output ?? undefined) as object | undefined };
    } catch (error) {
      outcome = 'failed';
      const e = error as Error & { code?: unknown };
      this.#logger.debug({ err: error, job_id: job.id }, 'job failed');
      return {
        id: job.id,
        status: 'failed',
        output: {
          name: e?.name ?? 'Error',
          message: e?.message ?? String(error),
          ...(typeof e?.code === 'string' ? { code: e.code } : {}),
        },
      };
    } finally {
      this.#running.delete(job.id);
      // A handler may end quietly when aborted: how the job was stopped says more than how it returned.
      // pg-boss aborts job.signal when the job is no longer this worker's: cancelled, or taken back past its expiry.
      if (this.#shutdown.signal.aborted) outcome = 'interrupted';
      else if (controller.signal.aborted || job.signal.aborted) outcome = 'cancelled';
      this.#emit({
        type: 'finished',
        queue: job.name,
        data: job.data,
        outcome,
        seconds: (performance.now() - started) / 1000,
      });
    }
  }

  async get<D = unknown>(queue: string, id: string): Promise<JobInfo<D> | null> {
    return this.find<D>([queue], id);
  }

  async find<D = unknown>(queues: readonly string[], id: string): Promise<JobInfo<D> | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const { items } = await this.#query<D>({ queues, limit: 1, offset: 0 }, id);
    return items[0] ?? null;
  }

  async list<D = unknown>(filter: JobListFilter): Promise<{ items: JobInfo<D>[]; total: number }> {
    return this.#query<D>(filter, null);
  }

  /**
   * Reads pg-boss's job table directly: listing across queues with filters is not in its API, and
   * this facade is the one place that knows pg-boss's schema.
   */
  async #query<D>(filter: JobListFilter, id: string | null): Promise<{ items: JobInfo<D>[]; total: number }> {
    const states = filter.states?.flatMap((state) => statesOf[state]) ?? null;
    const query = (limit: number, offset: number) =>
      this.#pool.query<JobRow>({
        text: `select j.id, j.name, j.state, j.data, j.output, j.retry_count, j.created_on, j.started_on,
          j.completed_on,
                    p.done, p.total, count(*) over () as total_rows
               from pgboss.job j left join job_progress p on p.job_id = j.id
              where j.name = any($1::text[]) and ($2::uuid is null or j.id = $2::uuid)
                and ($3::text[] is null or j.state::text = any($3::text[]))
                and ($4::jsonb is null or j.data @> $4::jsonb)
                and ($7::timestamptz is null or j.state not in ('completed', 'failed', 'cancelled')
                  or j.completed_on >= $7::timestamptz)
              order by j.created_on desc, j.id limit $5 offset $6`,
        values: [
          filter.queues,
          id,
          states,
          filter.data ? JSON.stringify(filter.data) : null,
          limit,
          offset,
          filter.finishedAfter?.toISOString() ?? null,
        ],
        types: defaultParsers as unknown as pg.CustomTypesConfig,
      });
    const { rows } = await query(filter.limit, filter.offset);
    const total = await pageTotal(
      rows,
      filter.offset,
      (row) => row.total_rows,
      async () => (await query(1, 0)).rows,
    );
    return { items: rows.map((row) => rowToJobInfo<D>(row)), total };
  }

  async cancel(queue: string, id: string): Promise<void> {
    const job = await this.get(queue, id);
    if (!job) throw new DocqaError('not_found', `Job ${id} was not found.`);
    if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') {
      throw new DocqaError('conflict', `Job ${id} has already finished (${job.state}).`);
    }
    await this.#boss.cancel(queue, id);
    // A job running in this process stops at once; elsewhere the heartbeat carries the cancel.
    this.#running.get(id)?.abort(new DocqaError('conflict', `Job ${id} was cancelled.`));
  }

  async schedule(
    queue: string,
    key: string,
    cron: string,
    data: object = {},
    options: Pick<SendOptions, 'group'> = {},
  ): Promise<void> {
    await this.#boss.schedule(queue, cron, data, {
      key,
      tz: 'UTC',
      ...(options.group ? { group: { id: options.group } } : {}),
    });
  }

  async unschedule(queue: string, key: string): Promise<void> {
    await this.#boss.unschedule(queue, key);
  }

  async purgeFinished(days: number): Promise<number> {
    const { rows } = await this.#pool.query<{ id: string }>(
      "delete from pgboss.job where state in ('completed', 'failed', 'cancelled') and " +
        'completed_on < now() - make_interval(days => $1) returning id',
      [days],
    );
    if (rows.length > 0)
      await this.#pool.query('delete from job_progress where job_id = any($1::uuid[])', [rows.map((row) => row.id)]);
    return rows.length;
  }

  async #recordProgress(jobId: string, done: number, total?: number): Promise<void> {
    await this.#pool.query(
      `insert into job_progress (job_id, done, total, updated_at) values ($1, $2, $3, now())
       on conflict (job_id) do update set done = excluded.done, total = excluded.total, updated_at = now()`,
      [jobId, done, total ?? null],
    );
  }
}

interface JobRow {
  id: string;
  name: string;
  state: JobWithMetadata['state'];
  data: unknown;
  output: unknown;
  retry_count: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  done: number | null;
  total: number | null;
  total_rows: string;
}

const statesOf: Record<JobState, string[]> = {
  queued: ['created', 'retry'],
  running: ['active'],
  succeeded: ['completed'],
  failed: ['failed'],
  cancelled: ['cancelled'],
};

function rowToJobInfo<D>(row: JobRow): JobInfo<D> {
  const state = stateNames[row.state];
  return {
    id: row.id,
    queue: row.name,
    state,
    data: row.data as D,
    output: row.output ?? null,
    retryCount: row.retry_count,
    createdAt: row.created_on,
    startedAt: state === 'queued' ? null : row.started_on,
    finishedAt: row.completed_on,
    progress: row.done === null ? null : { done: row.done, total: row.total },
  };
}

const stateNames: Record<JobWithMetadata['state'], JobState> = {
  created: 'queued',
  retry: 'queued',
  active: 'running',
  completed: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * pg-boss expects node-postgres' default parsing (Dates), while the application pool keeps
 * timestamps as strings for MikroORM; per-query `types` gives pg-boss its own. node-postgres reads
 * `types` as the parser source, and PGlite's protocol layer also iterates it as the list of
 * parameter types, so the object is an empty array that carries the parser lookup.
 */
const defaultParsers = Object.assign([] as number[], { getTypeParser: pg.types.getTypeParser });

function poolAdapter(pool: pg.Pool): IDatabase {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return pool.query({ text, values: values ?? [], types: defaultParsers as unknown as pg.CustomTypesConfig });
    },
  };
}

function executorAdapter(tx: SqlExecutor): IDatabase {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = await tx.query(text, values ?? []);
      return { rows: result.rows };
    },
  };
}
