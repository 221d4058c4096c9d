import { definePlugin, tokens } from '@docqa/plugin-api';
import { pgvectorOptionsSchema } from './config.js';
import { assertPgvectorVersion } from './extension-version.js';
import { migrations } from './sql.js';
import { createPgvectorStore } from './store.js';

export type { PgvectorOptions } from './config.js';

/**
 * The default vector store: embeddings in the kernel's PostgreSQL (or embedded PGlite) with
 * pgvector, searched by cosine distance through one HNSW index per embedding space.
 */
export default definePlugin({
  apiVersion: 1,
  kind: 'vectorStore',
  id: 'vectorstore-pgvector',
  description: 'Vector store on PostgreSQL with pgvector (HNSW, cosine).',
  configSchema: pgvectorOptionsSchema,
  deps: { db: tokens.db },
  migrations,
  async init({ options, deps, logger }) {
    await assertPgvectorVersion(deps.db);
    return createPgvectorStore(deps.db, options, logger);
  },
});
