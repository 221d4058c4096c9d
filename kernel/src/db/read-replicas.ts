import type pg from 'pg';
import type { Logger, QueryOptions, ReadDb, ReadReplicaState, SqlExecutor, SqlResult } from '@docqa/plugin-api';
import { asDatabaseError, statementConfig } from './sql.js';

export interface ReplicaPool {
  /** host:port/database: what health, metrics and logs call it (never the password). */
  name: string;
  pool: pg.Pool;
}

export interface ReadReplicasOptions {
  /** DATABASE_READ_MAX_LAG_SECONDS. */
  maxLagSeconds: number;
  /** Between two probes of every replica. */
  probeIntervalMs: number;
  logger: Logger;
}

type ReplicaEntry = ReadReplicaState & { pool: pg.Pool };

/** A probe slower than this finds the replica down: a scrape or a search never waits on a stuck server. */
const probeTimeoutMs = 3000;

/**
 * Lag as the brief of issue #31 defines it: nothing to replay (received = replayed) is no lag, else
 * the age of the last transaction replayed. Not in recovery (a primary, a promoted replica): none.
 */
const probeSql = `select case
    when not pg_is_in_recovery() then 0
    when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
    else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8
  end as lag`;

/**
 * The read executor (tokens.readDb): each query goes to the next replica in turn that the last probe
 * found up and close enough behind, else to the primary. A replica query that fails because the
 * replica is gone (or cancelled by the replica's recovery) is run again on the primary and the
 * replica is skipped until a probe finds it back: a replica dying never fails a search.
 */
export class ReadReplicas implements ReadDb {
  readonly #states: ReplicaEntry[];
  #next = 0;
  #timer: NodeJS.Timeout | null = null;
  #probing: Promise<void> | null = null;

  constructor(
    private readonly primary: SqlExecutor,
    replicas: readonly ReplicaPool[],
    private readonly options: ReadReplicasOptions,
  ) {
    this.#states = replicas.map((replica) => ({ ...replica, status: 'down', lagSeconds: null }));
  }

  /** Probes every replica once (so the first searches know where to go), then every interval. */
  async start(): Promise<void> {
    if (this.#states.length === 0) return;
    await this.probe();
    // probe() settles either way: a failed probe marks its replica down.
    this.#timer = setInterval(() => {
      this.probe().catch(() => undefined);
    }, this.options.probeIntervalMs);
    this.#timer.unref();
  }

  replicas(): readonly ReadReplicaState[] {
    return this.#states.map(({ name, status, lagSeconds }) => ({ name, status, lagSeconds }));
  }

  async query<R>(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<SqlResult<R>> {
    const replica = this.#pick();
    if (!replica) return this.primary.query<R>(text, params, options);
    try {
      // Replicas are PostgreSQL servers.
      const result = await replica.pool.query(statementConfig(text, params, options, 'server'));
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    } catch (error) {
      if (!replicaUnusable(error)) throw asDatabaseError(error);
      this.#markDown(replica, error);
      return this.primary.query<R>(text, params, options);
    }
  }

  /** One probe of every replica at a time; a call while one runs waits for that one. */
  probe(): Promise<void> {
    this.#probing ??= Promise.all(this.#states.map((state) => this.#probeOne(state))).then(
      () => undefined,
      () => undefined,
    );
    return this.#probing.finally(() => (this.#probing = null));
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#probing;
    await Promise.all(
      this.#states.map(async (state) => {
        if (!state.pool.ended) await state.pool.end().catch(() => undefined);
      }),
    );
  }

  #pick(): ReplicaEntry | null {
    for (let tried = 0; tried < this.#states.length; tried++) {
      const state = this.#states[this.#next % this.#states.length] as ReplicaEntry;
      this.#next = (this.#next + 1) % this.#states.length;
      if (state.status === 'up') return state;
    }
    return null;
  }

  async #probeOne(state: ReplicaEntry): Promise<void> {
    let lag: number | null;
    try {
      const { rows } = await withTimeout(state.pool.query<{ lag: number | null }>(probeSql), probeTimeoutMs);
      lag = rows[0]?.lag ?? null;
    } catch (error) {
      this.#markDown(state, error);
      return;
    }
    const before = state.status;
    state.lagSeconds = lag === null ? null : Math.max(0, Number(lag));
    // An unknown lag (nothing replayed yet while WAL waits) is not trusted either.
    state.status = state.lagSeconds !== null && state.lagSeconds <= this.options.maxLagSeconds ? 'up' : 'lagging';
    if (state.status !== before) {
      const log = state.status === 'up' ? this.options.logger.info : this.options.logger.warn;
      log.call(
        this.options.logger,
        { replica: state.name, lag_seconds: state.lagSeconds },
        `read replica ${state.status}`,
      );
    }
  }

  #markDown(state: ReplicaEntry, error: unknown): void {
    if (state.status !== 'down') {
      this.options.logger.warn(
        { replica: state.name, err: error },
        'read replica down: its reads go to the primary until it answers again',
      );
    }
    state.status = 'down';
    state.lagSeconds = null;
  }
}

/**
 * Errors that say the replica, not the statement, is the problem: no connection (refused, lost,
 * timed out, shutting down), the database or login missing there, or a statement cancelled by the
 * replica's recovery (SQLSTATE 40001 on a standby). A wrong statement fails the same on the primary.
 */
function replicaUnusable(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? '');
  if (code === '40001' || code === '3D000' || code.startsWith('28') || code.startsWith('57P')) return true;
  const converted = asDatabaseError(error) as { code?: unknown };
  return converted !== error && converted.code === 'unavailable';
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** host:port/database of a replica URL, for health, metrics and logs. */
export function replicaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
}
