import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { DocqaError } from '@docqa/plugin-api';

/**
 * What bounds the statements of one unit of work (an HTTP request). Code reaches the database
 * through many layers (MikroORM, Kysely, the plugins' `Db`, pg-boss on the embedded database), so
 * the limits travel with the work itself, and the pool applies them to every connection it hands
 * out inside that work: no query site has to remember them.
 */
export interface StatementLimits {
  /** PostgreSQL's `statement_timeout` for each statement, in ms; 0 leaves the connection's default. */
  timeoutMs: number;
  /** Where the timeout comes from, for the error message (`REQUEST_STATEMENT_TIMEOUT_SECONDS`). */
  setting: string;
  /** Aborted when nobody waits for the result any more (the client went away). */
  signal?: AbortSignal;
}

const storage = new AsyncLocalStorage<StatementLimits>();

/** Runs `work` (and everything it starts) under `limits`. Work outside any (jobs, start-up) has none. */
export function withStatementLimits<T>(limits: StatementLimits, work: () => T): T {
  return storage.run(limits, work);
}

/** Runs `work` with no limits, whoever started it: jobs outlive the request that sent them. */
export function withoutStatementLimits<T>(work: () => T): T {
  return storage.exit(work);
}

export function currentStatementLimits(): StatementLimits | undefined {
  return storage.getStore();
}

/** What a statement of work whose client went away fails with (never answered: nobody listens). */
export function abortedWorkError(): DocqaError {
  return new DocqaError('bad_request', 'The request was aborted by the client; its database work was stopped.');
}

/** PostgreSQL's SQLSTATE for a statement cancelled by `statement_timeout` or a cancel request. */
const queryCanceled = '57014';

/** A statement stopped by its `statement_timeout`: 504 `query_timeout`, naming the setting. */
export function asStatementTimeout(error: unknown): DocqaError | null {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (code === queryCanceled && typeof message === 'string' && /statement timeout/i.test(message)) {
      const limits = currentStatementLimits();
      const seconds = limits ? limits.timeoutMs / 1000 : null;
      const setting = limits?.setting ?? 'the statement timeout';
      return new DocqaError(
        'query_timeout',
        `The database took longer than ${seconds === null ? 'allowed' : `${seconds} s`} (${setting}) on this ` +
          'request and its statement was stopped; narrow the request (fewer filters, a smaller page) or ask ' +
          'an administrator to raise the limit.',
        { cause: error, extra: seconds === null ? {} : { limit_seconds: seconds } },
      );
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

/** The `statement_timeout` last set on a client by applyStatementLimits: undefined is the default. */
const appliedTimeout = Symbol('docqa.statementTimeout');
type LimitedClient = pg.PoolClient & { [appliedTimeout]?: number; processID?: number };

/**
 * Prepares a client just checked out of a PostgreSQL server pool for the work that asked for it:
 * its `statement_timeout` (set only when it differs from the last one, so a pool serving requests
 * pays one round trip per connection, not per statement), and a cancel of the running statement
 * when the work's signal aborts, for as long as the work holds the client. At checkout a pooled
 * connection is idle (no transaction), so the session setting is not undone by a rollback.
 */
export async function applyStatementLimits(
  client: pg.PoolClient,
  limits: StatementLimits | undefined,
  connection: pg.ClientConfig,
): Promise<void> {
  const limited = client as LimitedClient;
  const wanted = limits && limits.timeoutMs > 0 ? limits.timeoutMs : undefined;
  if (limited[appliedTimeout] !== wanted) {
    // An integer in ms: nothing of the request reaches this text.
    await client.query(wanted === undefined ? 'reset statement_timeout' : `set statement_timeout = ${wanted}`);
    limited[appliedTimeout] = wanted;
  }
  const signal = limits?.signal;
  if (!signal) return;
  const cancel = () => cancelRunningStatement(limited, connection);
  signal.addEventListener('abort', cancel, { once: true });
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    signal.removeEventListener('abort', cancel);
    client.release = release;
    release(error);
  };
}

/**
 * Cancels the client's running statement with `pg_cancel_backend`, over a connection of its own so
 * it works even when the pool is exhausted (DocQA's role may signal its own backends). Only while
 * the work still holds the client (the listener goes on release): when nothing runs, or a cancel
 * arrives after a statement ended, it can only hit a later statement of the same, abandoned work.
 */
function cancelRunningStatement(client: LimitedClient, connection: pg.ClientConfig): void {
  const pid = client.processID;
  if (!pid) return;
  const canceller = new pg.Client(connection);
  // A server that cannot be reached for the cancel is no reason to fail anything else: the
  // statement then runs to its statement_timeout.
  canceller.on('error', () => undefined);
  const cancel = async () => {
    try {
      await canceller.connect();
      await canceller.query('select pg_cancel_backend($1)', [pid]);
    } finally {
      await canceller.end();
    }
  };
  cancel().catch(() => undefined);
}
