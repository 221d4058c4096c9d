import type { DatabaseConnection } from './pool.js';

// Any constant works; it only has to be the same in every replica of DocQA.
const migrationLockKey = 0x646f6371; // "docq"

/**
 * Replicas starting together must not run the same migrations at once. On a server, the first
 * takes a session advisory lock and the others wait for it. The embedded database belongs to one
 * process (its directory is locked) and its single connection cannot be held aside, so no lock.
 */
export async function withMigrationLock<T>(connection: DatabaseConnection, work: () => Promise<T>): Promise<T> {
  if (connection.mode === 'embedded') return work();
  const client = await connection.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [migrationLockKey]);
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
    client.release();
  }
}
