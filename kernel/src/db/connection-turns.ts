import pg from 'pg';
import { abortedWorkError, currentStatementLimits } from './statement-limits.js';

/** A single statement (`pool.query`), or a client held for several (`pool.connect()`: transactions, MikroORM). */
export type TurnKind = 'statement' | 'client';

interface Waiter {
  kind: TurnKind;
  since: number;
  grant(): void;
}

/** pg-pool's words, which asDatabaseError (sql.ts) turns into a 503. */
const timeoutMessage = 'timeout exceeded when trying to connect';

/**
 * Who gets the embedded database's one connection next. node-postgres serves waiters first come,
 * first served, so a single statement waited behind every transaction queued before it, and an
 * ingest writes a document's vectors in a transaction of about half a second. bench:ingest saw the
 * embedding model run dry while the next documents' first statements (the job's fetch, the
 * document's row, its rules) waited behind the previous documents' writes; an HTTP request's
 * statements waited the same way.
 *
 * So a statement goes before a waiting client, unless that client has waited `patienceMs` already:
 * a transaction then starts next, so writers wait about that long at most on a busy database, not
 * for ever. Within each kind, first come, first served.
 */
export class ConnectionTurns {
  readonly #waiting: Waiter[] = [];
  #taken = false;

  constructor(private readonly patienceMs: number) {}

  /**
   * Waits for the turn; the function it resolves with gives the turn back (once). A waiter whose
   * `signal` aborts (its client went away) leaves the queue at once instead of taking a turn.
   */
  take(kind: TurnKind, timeoutMs: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortedWorkError());
    if (!this.#taken) {
      this.#taken = true;
      return Promise.resolve(this.#giveBackOnce());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        kind,
        since: performance.now(),
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', leave);
          resolve(this.#giveBackOnce());
        },
      };
      const giveUp = (error: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', leave);
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(error);
      };
      const leave = () => giveUp(abortedWorkError());
      const timer = setTimeout(() => giveUp(new Error(timeoutMessage)), timeoutMs);
      signal?.addEventListener('abort', leave, { once: true });
      // Like pg-pool's own wait: a waiting caller does not keep the process alive.
      timer.unref();
      this.#waiting.push(waiter);
    });
  }

  #giveBackOnce(): () => void {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.#next();
      if (next) next.grant();
      else this.#taken = false;
    };
  }

  #next(): Waiter | undefined {
    const oldestClient = this.#waiting.findIndex((waiter) => waiter.kind === 'client');
    const overdue = oldestClient >= 0 && performance.now() - this.#waiting[oldestClient]!.since >= this.patienceMs;
    const statement = this.#waiting.findIndex((waiter) => waiter.kind === 'statement');
    const at = overdue || statement < 0 ? 0 : statement;
    return this.#waiting.splice(at, 1)[0];
  }
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * The embedded database's pool (pool.ts): one client, handed out by ConnectionTurns. pg.Pool's
 * `query` checks the client out with a callback for its one statement; every other caller checks
 * it out without one, to hold it for several. (That is pg-pool's inside, not its contract: if it
 * changed, statements would only lose their precedence, and connection-turns.test.ts would say so.)
 */
export class TurnTakingPool extends pg.Pool {
  readonly #turns: ConnectionTurns;
  readonly #timeoutMs: number;

  constructor(config: pg.PoolConfig & { connectionTimeoutMillis: number }, patienceMs: number) {
    super(config);
    this.#turns = new ConnectionTurns(patienceMs);
    this.#timeoutMs = config.connectionTimeoutMillis;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const checkedOut = this.#checkOut(callback ? 'statement' : 'client');
    if (!callback) return checkedOut;
    checkedOut.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  /**
   * PGlite runs a statement to its end on this thread: it has no `statement_timeout` (no timer
   * signals in WebAssembly) and no cancel. What can be bounded is the wait: work whose client went
   * away stops waiting for the connection and starts no further statement.
   */
  async #checkOut(kind: TurnKind): Promise<pg.PoolClient> {
    const giveBack = await this.#turns.take(kind, this.#timeoutMs, currentStatementLimits()?.signal);
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      giveBack();
      throw error;
    }
    // The turn passes on once the pool has the client back (idle, or removed after an error).
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      try {
        release(error);
      } finally {
        giveBack();
      }
    };
    return client;
  }
}
