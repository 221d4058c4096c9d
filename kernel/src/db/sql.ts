import crypto from 'node:crypto';
import type pg from 'pg';
import { DocqaError, type Db, type QueryOptions, type SqlExecutor, type SqlResult } from '@docqa/plugin-api';
import { asStatementTimeout } from './statement-limits.js';

/**
 * Turns a lost or exhausted database into the 503 users should see and a statement stopped by its
 * timeout into 504 `query_timeout`, keeping other SQL errors as they are.
 */
export function asDatabaseError(error: unknown): unknown {
  const timeout = asStatementTimeout(error);
  if (timeout) return timeout;
  const message = (error as Error)?.message ?? '';
  const code = (error as { code?: string })?.code ?? '';
  if (
    /timeout exceeded when trying to connect|Connection terminated|ECONNREFUSED|ECONNRESET|Cannot use a pool after calling end/i.test(
      message,
    ) ||
    code.startsWith('08') ||
    code === '57P01'
  ) {
    return new DocqaError('unavailable', 'The database is not reachable right now; try again shortly.', {
      cause: error,
    });
  }
  return error;
}

/**
 * A statement as node-postgres runs it: named after its text when it is to stay prepared (the same
 * text gets the same name on every connection, and two texts never share one), unnamed otherwise.
 */
export function statementConfig(
  text: string,
  params: readonly unknown[],
  options: QueryOptions | undefined,
  mode: Db['mode'],
): pg.QueryConfig {
  // PGlite is one session behind every client the embedded pool makes: a statement prepared by a
  // client the pool threw away would still exist there, and its successor's Parse of it would fail.
  if (!options?.prepared || mode !== 'server') return { text, values: params as unknown[] };
  return { name: statementName(text), text, values: params as unknown[] };
}

/** Names of the texts prepared so far: hashing a search's 2 KB statement each time was 2 % of its CPU. */
const statementNames = new Map<string, string>();
/** Prepared texts come in a few shapes; past this many, something varies that should not, and the cache starts over. */
const maxStatementNames = 1_000;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= maxStatementNames) statementNames.clear();
    name = `docqa_${crypto.createHash('sha1').update(text).digest('base64url')}`;
    statementNames.set(text, name);
  }
  return name;
}

function executor(client: pg.Pool | pg.PoolClient, mode: Db['mode']): SqlExecutor {
  return {
    async query<R>(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<SqlResult<R>> {
      try {
        const result = await client.query(statementConfig(text, params, options, mode));
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw asDatabaseError(error);
      }
    },
  };
}

/** The plugins' view of the database: SQL on the application pool, and transactions on one client. */
export function createDb(pool: pg.Pool, mode: Db['mode']): Db {
  const direct = executor(pool, mode);
  return {
    mode,
    query: direct.query,
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw asDatabaseError(error);
      }
      try {
        await client.query('BEGIN');
        const result = await work(executor(client, mode));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
