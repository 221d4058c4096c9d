import { definePlugin, tokens } from '@docqa/plugin-api';
import { pgvectorOptionsSchema } from './config.js';
import { assertPgvectorVersion } from './extension-version.js';
import { migrations } from './sql.js';
import { createPgvectorStore } from './store.js';
import { openVectorDatabase, vectorDatabaseSettings } from './vector-database.js';

export type { PgvectorOptions } from './config.js';
export { openVectorDatabase, vectorDatabaseSettings, vectorDatabaseUrl } from './vector-database.js';

/**
 * The default vector store: embeddings in PostgreSQL with pgvector, searched by cosine distance
 * through one HNSW index per embedding space. In the kernel's database (or embedded PGlite), or,
 * when VECTORDB_URL names a PostgreSQL server, on that server with a pool and migrations of its own.
 */
export default definePlugin({
  apiVersion: 1,
  kind: 'vectorStore',
  id: 'vectorstore-pgvector',
  description: 'Vector store on PostgreSQL with pgvector (HNSW, cosine).',
  configSchema: pgvectorOptionsSchema,
  deps: { db: tokens.db, config: tokens.config },
  // Applied to the kernel's database in any case; with VECTORDB_URL that table stays empty.
  migrations,
  async init({ options, deps, logger, onStop }) {
    const settings = vectorDatabaseSettings(deps.config);
    if (!settings) {
      await assertPgvectorVersion(deps.db);
      return createPgvectorStore(deps.db, options, logger);
    }
    const vectors = await openVectorDatabase(settings, logger);
    onStop(() => vectors.close());
    try {
      await assertPgvectorVersion(vectors.db);
    } catch (error) {
      await vectors.close();
      throw error;
    }
    logger.info('vectors are kept on the vector database of VECTORDB_URL');
    return createPgvectorStore(vectors.db, options, logger);
  },
});
