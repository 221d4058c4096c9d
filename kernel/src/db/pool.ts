import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig, PglitePgConnection } from '@electric-sql/pglite/node-postgres';
import { DocqaError } from '@docqa/plugin-api';
import { TurnTakingPool } from './connection-turns.js';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.js';
import { createEmbeddedDatabase, embeddedOptions } from './embedded-database.js';
import { LimitedPool } from './limited-pool.js';

export interface PoolSettings {
  size: number;
  maxOverflow: number;
  timeoutSeconds: number;
  recycleSeconds: number;
}

export interface DatabaseConnection {
  mode: 'embedded' | 'server';
  /** One pool for the application: MikroORM, plugins' SQL and (embedded) pg-boss share it. */
  pool: pg.Pool;
  /** The server URL in server mode; pg-boss opens its own pool there. */
  url: string | null;
  close(): Promise<void>;
}

/**
 * Dates and timestamps stay the strings PostgreSQL sends, as MikroORM expects of the pool it
 * runs on (it does the conversion itself). Code outside MikroORM gets the same strings.
 */
function applicationTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  const textArray = pg.types.getTypeParser(1009 as never); // text[]
  for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, (value: string) => value);
  for (const oid of [1182, 1115, 1185, 1187]) types.setTypeParser(oid, textArray);
  return types;
}

export async function openServerDatabase(url: string, settings: PoolSettings): Promise<DatabaseConnection> {
  const pool = createServerPool(url, settings);
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DocqaError(
      'unavailable',
      `Cannot connect to the database at DATABASE_URL (${redactUrl(url)}): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return { mode: 'server', pool, url, close: async () => (pool.ended ? undefined : pool.end()) };
}

/** A pool on a PostgreSQL server (the primary's, a read replica's), connecting when first used. */
export function createServerPool(url: string, settings: PoolSettings, applicationName = 'docqa'): pg.Pool {
  const pool = new LimitedPool({
    connectionString: url,
    max: settings.size + settings.maxOverflow,
    // Connections above DB_POOL_SIZE are the overflow: closed soon after the load that needed them.
    min: 0,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: settings.timeoutSeconds * 1000,
    maxLifetimeSeconds: settings.recycleSeconds,
    application_name: applicationName,
    // DocQA's statements are short and many. PostgreSQL compiles a statement whose plan costs more
    // than jit_above_cost (100,000) with LLVM at every execution: the documents list's count over
    // SciFact's 5,183 documents crossed it, and took 41-45 ms with JIT against 3.8 ms without (the
    // compiling alone 20 ms), 37 ms of PostgreSQL's CPU a request under load (docs/operations.md).
    options: '-c jit=off',
    types: applicationTypes(),
  });
  pool.on('error', () => {
    // An idle client lost its server; the pool drops it and the next query opens a new one.
  });
  return pool;
}

/** How long a transaction on the embedded database lets single statements go first (connection-turns.ts). */
const transactionPatienceMs = 1000;

/**
 * The embedded database: PostgreSQL compiled to WebAssembly (PGlite) with pgvector, its files in
 * `<dataDir>/pgdata`. PGlite is one connection, so the pool holds exactly one client: a transaction
 * holds it and everything else waits, which is what keeps transactions from interleaving. Single
 * statements get it before waiting transactions (connection-turns.ts).
 * Pass `dataDir: null` for an in-memory database (tests).
 */
export async function openEmbeddedDatabase(dataDir: string | null, timeoutSeconds = 30): Promise<DatabaseConnection> {
  let lock: DirectoryLock | null = null;
  let pgDir: string | undefined;
  if (dataDir !== null) {
    pgDir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(pgDir, { recursive: true });
    lock = acquireDirectoryLock(pgDir);
  }
  let pglite: PGlite;
  try {
    if (pgDir) {
      // A long-running server's database: unpacked from the build's template or created in a child process.
      await createEmbeddedDatabase(pgDir);
    }
    pglite = await PGlite.create(embeddedOptions(pgDir));
  } catch (error) {
    lock?.release();
    throw new DocqaError(
      'unavailable',
      `Cannot open the embedded database in ${pgDir ?? 'memory'}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const pool = new TurnTakingPool(
    {
      ...(createPgConfig(pglite) as unknown as pg.PoolConfig),
      Client: embeddedClientClass(pglite),
      max: 1,
      idleTimeoutMillis: 0,
      connectionTimeoutMillis: timeoutSeconds * 1000,
      types: applicationTypes(),
    },
    transactionPatienceMs,
  );
  return {
    mode: 'embedded',
    pool,
    url: null,
    async close() {
      if (!pool.ended) await pool.end();
      await pglite.close();
      lock?.release();
    },
  };
}

/**
 * node-postgres clients that each get a connection of their own to PGlite. PGlite's config object
 * hands every client the same connection object; the pool ends a client after a failed query, and
 * that end (emitted later, on the shared object) then killed the client that replaced it: every
 * error in a parameterized query cost the next query too ("Connection terminated unexpectedly",
 * then "unexpected parseComplete message"), and work queued behind it stalled.
 */
function embeddedClientClass(pglite: PGlite): typeof pg.Client {
  return class EmbeddedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      const options = typeof config === 'string' ? { connectionString: config } : (config ?? {});
      super({ ...options, connection: new PglitePgConnection({ pglite: turnTaking(pglite) }) } as pg.ClientConfig);
    }

    /** A client thrown away mid-transaction left PGlite's one session in it: this one starts clean. */
    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
      const ready = super.connect().then(async () => {
        if (pglite.isInTransaction()) await super.query('rollback');
        return this;
      });
      if (!callback) return ready;
      // node-postgres calls back with no error on success.
      ready.then(() => (callback as (error?: Error) => void)(), callback);
    }
  };
}

/**
 * PGlite runs each statement synchronously on this thread, and node-postgres chains one statement
 * to the next through promises alone, so a transaction of many statements ran without a single
 * turn of the event loop: HTTP requests, timers and a local embedding model's finished texts all
 * waited for its end (an ingest's vector upsert held the thread for seconds). The event loop now
 * turns before each statement starts (its Parse or simple Query message). Not between the messages
 * of one statement: after an error the pool replaces the client, and the old connection's last
 * messages (Execute, Sync) must reach PGlite before the new connection's first.
 */
function turnTaking(pglite: PGlite): PGlite {
  const execProtocolStream: PGlite['execProtocolStream'] = async (message, options) => {
    if (message[0] === parseMessage || message[0] === queryMessage)
      await new Promise((resolve) => setImmediate(resolve));
    return pglite.execProtocolStream(message, options);
  };
  // All PglitePgConnection uses of its PGlite.
  return { waitReady: pglite.waitReady, execProtocolStream } as PGlite;
}

const parseMessage = 0x50; // 'P'
const queryMessage = 0x51; // 'Q'

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
