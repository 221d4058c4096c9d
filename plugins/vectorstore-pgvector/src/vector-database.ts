import pg from 'pg';
import { DocqaError, type ConfigService, type Db, type Logger, type SqlExecutor } from '@docqa/plugin-api';
import { migrations } from './sql.js';

/** VECTORDB_API_KEY's documented placeholder: never sent as a password. */
const apiKeyPlaceholder = 'change-me-vectordb-key';
/** Where this store records the migrations it applied on a vector database of its own. */
const migrationsTable = 'docqa_vector_migrations';
/** One advisory lock key for every replica migrating the same vector database. */
const migrationLockKey = 0x646f6371_0076;

export interface VectorDatabase {
  db: Db;
  close(): Promise<void>;
}

/**
 * VECTORDB_URL as this store connects to it: a PostgreSQL URL, with VECTORDB_API_KEY as the
 * password when the URL names none (a key that is not the placeholder). Anything else is a
 * start-up error: pgvector keeps vectors in PostgreSQL, not behind an HTTP API.
 */
export function vectorDatabaseUrl(url: string, apiKey: string | undefined): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // Reported below.
  }
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')) {
    throw new DocqaError(
      'config_invalid',
      `VECTORDB_URL (${redact(url)}) is not a PostgreSQL URL: vectorstore-pgvector keeps its vectors on a ` +
        'PostgreSQL server with pgvector (postgres://user@host:5432/database). Unset VECTORDB_URL to keep them ' +
        'in the main database, or configure a vector-store plugin for that database.',
    );
  }
  if (!parsed.password && apiKey && apiKey !== apiKeyPlaceholder) parsed.password = apiKey;
  return parsed.toString();
}

/** The settings VECTORDB_URL is read with; the pool sizes are the main database's (DB_POOL_*). */
export function vectorDatabaseSettings(config: ConfigService): { url: string; pool: pg.PoolConfig } | null {
  const url = config.get('VECTORDB_URL');
  if (typeof url !== 'string' || url === '') return null;
  const apiKey = config.get('VECTORDB_API_KEY');
  return {
    url: vectorDatabaseUrl(url, typeof apiKey === 'string' ? apiKey : undefined),
    pool: {
      max: Number(config.get('DB_POOL_SIZE') ?? 5) + Number(config.get('DB_MAX_OVERFLOW') ?? 10),
      min: 0,
      idleTimeoutMillis: 10_000,
      connectionTimeoutMillis: Number(config.get('DB_POOL_TIMEOUT') ?? 30) * 1000,
      maxLifetimeSeconds: Number(config.get('DB_POOL_RECYCLE') ?? 0),
      application_name: 'docqa-vectors',
    },
  };
}

/**
 * A pool of its own on the vector database, with this store's migrations applied there (tracked in
 * docqa_vector_migrations, one replica at a time under an advisory lock), so vector search scales
 * apart from the main database. Fails start-up with the URL (password hidden) when it cannot connect.
 */
export async function openVectorDatabase(
  settings: { url: string; pool: pg.PoolConfig },
  logger: Logger,
): Promise<VectorDatabase> {
  const pool = new pg.Pool({ connectionString: settings.url, ...settings.pool });
  pool.on('error', () => {
    // An idle client lost its server; the pool drops it and the next query opens a new one.
  });
  const db = poolDb(pool);
  try {
    const applied = await migrate(db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied vector database migrations');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DocqaError(
      'unavailable',
      `Cannot prepare the vector database at VECTORDB_URL (${redact(settings.url)}): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return { db, close: async () => (pool.ended ? undefined : pool.end()) };
}

async function migrate(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [migrationLockKey]);
    await tx.query(
      `create table if not exists ${migrationsTable} (name text primary key, ` +
        'applied_at timestamptz not null default now())',
    );
    const { rows } = await tx.query<{ name: string }>(`select name from ${migrationsTable}`);
    const done = new Set(rows.map((row) => row.name));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      for (const statement of migration.up) await tx.query(statement);
      await tx.query(`insert into ${migrationsTable} (name) values ($1)`, [migration.name]);
      applied.push(migration.name);
    }
    return applied;
  });
}

function poolDb(pool: pg.Pool): Db {
  const run = async <R>(sql: pg.Pool | pg.PoolClient, text: string, params?: readonly unknown[]) => {
    const result = await sql.query(text, params as unknown[] | undefined);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  };
  return {
    mode: 'server',
    query: (text, params) => run(pool, text, params),
    async transaction(work) {
      const client = await pool.connect();
      const tx: SqlExecutor = { query: (text, params) => run(client, text, params) };
      try {
        await client.query('begin');
        const result = await work(tx);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
