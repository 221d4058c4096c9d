import pg from 'pg';
import { abortedWorkError, applyStatementLimits, currentStatementLimits } from './statement-limits.js';

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * The PostgreSQL server's pool: every client it hands out carries the statement limits of the work
 * that asked for it (statement-limits.ts). `pool.query` checks out through `connect(callback)`,
 * MikroORM, Kysely and transactions through `connect()`: both pass here, in the caller's context.
 */
export class LimitedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const checkedOut = this.#checkOut();
    if (!callback) return checkedOut;
    checkedOut.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  async #checkOut(): Promise<pg.PoolClient> {
    const limits = currentStatementLimits();
    if (limits?.signal?.aborted) throw abortedWorkError();
    const client = await super.connect();
    try {
      await applyStatementLimits(client, limits, this.options);
    } catch (error) {
      // A connection in an unknown state is not given to anyone else.
      client.release(error as Error);
      throw error;
    }
    // The client may have left while the pool had no connection free.
    if (limits?.signal?.aborted) {
      client.release();
      throw abortedWorkError();
    }
    return client;
  }
}
