import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { openEmbeddedDatabase, openServerDatabase, type DatabaseConnection } from '@docqa/kernel';

/** A database for one started server: a fresh one on TEST_DATABASE_URL's server, else embedded. */
export async function databaseEnv(): Promise<{
  env: Record<string, string>;
  url: string | null;
  drop(): Promise<void>;
}> {
  if (!process.env.TEST_DATABASE_URL) return { env: {}, url: null, drop: async () => undefined };
  const database = await createTemporaryDatabase(process.env.TEST_DATABASE_URL);
  return { env: { DATABASE_URL: database.url }, url: database.url, drop: database.drop };
}

/**
 * Runs queries on a server's database from the test: on PostgreSQL at any time; the embedded one
 * only once the server has stopped (it is locked to one process), opened from its data directory.
 */
export async function inspectDatabase<T>(
  target: { url: string | null; dataDir: string },
  inspect: (connection: DatabaseConnection) => Promise<T>,
): Promise<T> {
  const connection = target.url
    ? await openServerDatabase(target.url, { size: 1, maxOverflow: 0, timeoutSeconds: 10, recycleSeconds: 3600 })
    : await openEmbeddedDatabase(target.dataDir);
  try {
    return await inspect(connection);
  } finally {
    await connection.close();
  }
}
