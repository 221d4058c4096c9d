/**
 * The kernel's services as plugins see them. Plugins receive these through `deps`; they never
 * construct their own logger, database pool or job queue.
 */

export interface Logger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** An OpenID provider the operator configured (OIDC_PROVIDERS), used while none is stored. */
export interface OidcFallbackProvider {
  name: string;
  clientId: string;
  clientSecret: string | undefined;
  discoveryUrl: string;
  redirectUri: string;
  scopes: string[];
  adminGroups: string[];
}

/** Validated start-up configuration (environment). Immutable for the life of the process. */
export interface ConfigService {
  get<K extends string>(name: K): unknown;
  /** OIDC_PROVIDERS with each provider's OIDC_<NAME>_* variables, checked at start. */
  readonly oidcProviders: readonly OidcFallbackProvider[];
  /** The directory DocQA keeps its files in (embedded database, uploads, models). */
  readonly dataDir: string;
  readonly production: boolean;
}

/**
 * EFFECTIVE_N_CTX: N_CTX, lowered to the chat model's limit when that is smaller (spec 7). The kernel
 * derives it from the configured LLM once plugins have started; the models module sets it again when a
 * chat model is switched at run time, and chat reads it for every answer's token budget.
 */
export interface ContextWindow {
  get(): number;
  set(tokens: number): void;
}

/**
 * Runtime settings: the variables the spec marks "seed". Written from the environment on first
 * start, authoritative afterwards, changeable without restart.
 */
export interface SettingsService {
  /**
   * How long another replica may take to see a change (it polls): what a cache of anything other
   * replicas change may keep a value for without making the delay worse.
   */
  readonly propagationSeconds: number;
  get(key: string): unknown;
  all(): Record<string, unknown>;
  set(changes: Record<string, unknown>, actor?: string): Promise<Record<string, unknown>>;
  /** Called after every change that this process sees (its own or another replica's). */
  onChange(listener: (changed: Record<string, unknown>) => void): () => void;
}

export interface SqlResult<R> {
  rows: R[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Keep the statement prepared on each PostgreSQL server connection that runs it (named after its
   * text), so running it again skips parsing and, once PostgreSQL finds its generic plan no dearer
   * than the custom ones, planning. Only for statements run often whose text comes in a few shapes:
   * each shape stays in every connection's memory. The embedded database runs them unprepared.
   */
  prepared?: boolean;
}

export interface SqlExecutor {
  query<R = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<SqlResult<R>>;
}

/** The database as plugins get it: plain SQL on the kernel's pool, in the kernel's transactions. */
export interface Db extends SqlExecutor {
  /** `embedded` is PGlite in-process (one connection); `server` is a PostgreSQL server. */
  readonly mode: 'embedded' | 'server';
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/** A read replica of DATABASE_READ_URL as the last probe found it (name: host:port/database, no password). */
export interface ReadReplicaState {
  name: string;
  /** lagging: further behind than DATABASE_READ_MAX_LAG_SECONDS (or by an unknown amount); skipped like down. */
  status: 'up' | 'down' | 'lagging';
  /** Seconds behind the primary; null when down or unknown. */
  lagSeconds: number | null;
}

/**
 * Where reads that may be a little behind go (docs/operations.md, Read replicas): a healthy replica
 * of DATABASE_READ_URL in turn, else the primary; a replica that fails to connect mid-query is
 * retried on the primary. Without replicas it is the primary. Never for reads that must see the
 * caller's own writes.
 */
export interface ReadDb extends SqlExecutor {
  replicas(): readonly ReadReplicaState[];
}

export interface JobContext<D> {
  id: string;
  data: D;
  /** Aborted when the job is cancelled (on any replica) or the process stops. */
  signal: AbortSignal;
  progress(done: number, total?: number): Promise<void>;
}

export interface QueueOptions {
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Seconds a running job may take before it is failed and retried. */
  expireInSeconds?: number;
  /**
   * Seconds between liveness beats of a running job. A job whose worker died is retried after a
   * missed beat, and a cancel from another replica reaches the running handler's signal by it.
   */
  heartbeatSeconds?: number;
}

export interface WorkOptions {
  /** Jobs of this queue running at once in this process. */
  concurrency?: number;
  /**
   * Jobs of one group (`SendOptions.group`) running at once in this process. Below `concurrency`,
   * it keeps slots free for other groups, so one big source cannot hold every slot while another
   * waits; left idle when only one group has work. Jobs without a group are not limited.
   */
  groupConcurrency?: number;
}

export interface SendOptions {
  /** Jobs with the same key are not queued twice while one is waiting. */
  singletonKey?: string;
  startAfterSeconds?: number;
  /** The group the job counts against for `WorkOptions.groupConcurrency`, such as its source's id. */
  group?: string;
  /**
   * Run the send inside this transaction so the job exists only if the transaction commits.
   * PostgreSQL server only: the embedded database's single connection is held by the transaction.
   */
  tx?: SqlExecutor;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobInfo<D = unknown> {
  id: string;
  queue: string;
  state: JobState;
  data: D;
  output: unknown;
  retryCount: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Last reported progress of a running or finished job. */
  progress: { done: number; total: number | null } | null;
}

export interface JobListFilter {
  queues: readonly string[];
  states?: readonly JobState[];
  /** Jobs whose data has these top-level string values, such as `{ sourceId }`. */
  data?: Record<string, string>;
  /** Leaves out jobs that finished (succeeded, failed, cancelled) before this; queued and running ones stay. */
  finishedAfter?: Date;
  limit: number;
  offset: number;
}

/** Background jobs and cron schedules, stored in the database (pg-boss behind this facade). */
export interface JobsService {
  createQueue(name: string, options?: QueueOptions): Promise<void>;
  send<D extends object>(queue: string, data: D, options?: SendOptions): Promise<string>;
  work<D extends object>(
    queue: string,
    handler: (job: JobContext<D>) => Promise<unknown>,
    options?: WorkOptions,
  ): Promise<void>;
  get<D = unknown>(queue: string, id: string): Promise<JobInfo<D> | null>;
  /** A job of any of `queues` by id. */
  find<D = unknown>(queues: readonly string[], id: string): Promise<JobInfo<D> | null>;
  /** Jobs of `queues`, newest first. */
  list<D = unknown>(filter: JobListFilter): Promise<{ items: JobInfo<D>[]; total: number }>;
  cancel(queue: string, id: string): Promise<void>;
  /** Sends `data` to `queue` on every tick of `cron` (UTC); `key` names the schedule within the queue. */
  schedule(
    queue: string,
    key: string,
    cron: string,
    data?: object,
    options?: Pick<SendOptions, 'group'>,
  ): Promise<void>;
  unschedule(queue: string, key: string): Promise<void>;
  /** Deletes finished jobs (succeeded, failed, cancelled) that ended more than `days` ago; answers how many. */
  purgeFinished(days: number): Promise<number>;
  /** Jobs of this process that are running now. */
  runningCount(): number;
}

/** One security-relevant event (spec 6.2): who did what to which target, from where, and how it went. */
export interface AuditEvent {
  type: 'chat.query' | 'sync.all' | 'config.update' | 'license.apply' | 'user.create' | 'user.delete' | (string & {});
  actor: { id: string; username: string } | null;
  ip?: string | null;
  target?: string | null;
  outcome: 'success' | 'failure';
  details?: Record<string, unknown>;
}

/** Where audit events go. The kernel's default writes them to the log; the audit store replaces it. */
export interface AuditService {
  record(event: AuditEvent): Promise<void>;
}

/** How a job run by this process ended: `interrupted` when the process stopped under it (it is retried). */
export type JobRunOutcome = 'succeeded' | 'failed' | 'cancelled' | 'interrupted';

/** A job of this process starting or ending (metrics). Listeners are called synchronously and must not throw. */
export type JobRunEvent =
  | { type: 'started'; queue: string; data: unknown }
  | { type: 'finished'; queue: string; data: unknown; outcome: JobRunOutcome; seconds: number };

/** Jobs waiting (created or retry) and running (active) in one queue, counted in the database. */
export interface UnfinishedJobCount {
  queue: string;
  queued: number;
  running: number;
}

/** What the job runner tells observers (the metrics): each run of this process, and the queues' depth. */
export interface JobActivity {
  onJobRun(listener: (event: JobRunEvent) => void): () => void;
  countUnfinished(): Promise<UnfinishedJobCount[]>;
}
