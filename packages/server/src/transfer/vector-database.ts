import pg from 'pg';
import type { LoadedConfig } from '@docqa/kernel';
import { openVectorDatabase, vectorDatabaseUrl } from '@docqa/plugin-vectorstore-pgvector';
import { quoteIdent } from './catalog.js';

/** The table pgvector keeps vectors in: the main database's, or the one on VECTORDB_URL's server. */
export const vectorTable = 'vector_embedding';

/**
 * With a PostgreSQL VECTORDB_URL the vectors live on that server (vectorstore-pgvector), so an
 * archive's vector_embedding rows are read from and written to it instead of the main database's
 * table, which stays empty there. Another URL belongs to another vector-store plugin and its own
 * store: not carried. With `prepare`, the store's migrations are applied there first (an import).
 */
export async function connectVectorDatabase(config: LoadedConfig, prepare: boolean): Promise<pg.Client | null> {
  const url = config.values.VECTORDB_URL;
  if (!url || !/^postgres(ql)?:/.test(url)) return null;
  const connectionString = vectorDatabaseUrl(url, config.values.VECTORDB_API_KEY);
  if (prepare) {
    const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
    await (await openVectorDatabase({ url: connectionString, pool: { max: 1 } }, silent)).close();
  }
  const client = new pg.Client({ connectionString, application_name: 'docqa-transfer' });
  await client.connect();
  return client;
}

export async function countVectors(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ count: string }>(`select count(*) as count from ${quoteIdent(vectorTable)}`);
  return Number(rows[0]?.count ?? 0);
}
