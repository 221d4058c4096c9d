import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { providerTokens } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { startServer } from '../server.js';
import { exportArchive } from './export.js';
import { importArchive } from './import.js';

type Database = { url: string; drop(): Promise<void> };

/**
 * Export and import with the vectors on VECTORDB_URL's server (#29 item 8): the archive carries the
 * vectors from there, and an import writes them to the target's vector database. Second databases
 * on the test PostgreSQL stand in for the vector servers; the embedded database cannot have one.
 */
describe('export and import with the vectors apart (VECTORDB_URL)', function () {
  this.timeout(180_000);
  const made: Database[] = [];
  const dirs: string[] = [];
  let archive: string;
  let sourceVectors: Database;
  const database = async () => {
    const created = await createTemporaryDatabase(process.env.TEST_DATABASE_URL as string);
    made.push(created);
    return created;
  };
  const directory = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-vectors-transfer-'));
    dirs.push(dir);
    return dir;
  };
  const envOf = (dataDir: string, main: Database, vectors: Database) => ({
    ...testSecrets,
    DOCQA_DATA_DIR: dataDir,
    DOCQA_SECRETS_DIR: dataDir,
    LOG_LEVEL: 'ERROR',
    DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
    DATABASE_URL: main.url,
    VECTORDB_URL: vectors.url,
  });
  const rowsOf = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ chunk_id: string; embedding: string }>(
        'select chunk_id, document_id, space, embedding::text as embedding from vector_embedding order by chunk_id',
      );
      return rows;
    } finally {
      await client.end();
    }
  };

  before(async function () {
    if (!process.env.TEST_DATABASE_URL) {
      console.log('    (skipped: set TEST_DATABASE_URL; second PostgreSQL databases stand in for the vector servers)');
      this.skip();
    }
    const dataDir = directory();
    const main = await database();
    sourceVectors = await database();
    const env = envOf(dataDir, main, sourceVectors);
    const server = await startServer({ env, cwd: dataDir, port: 0, host: '127.0.0.1' });
    try {
      await server.kernel.resolve(providerTokens.vectorStore).upsert({ model: 'carried', dimensions: 3 }, [
        { chunkId: 'c1', documentId: 'd1', embedding: [1, 0.5, 0] },
        { chunkId: 'c2', documentId: 'd1', embedding: [0, 1, 0.25] },
      ]);
    } finally {
      await server.stop();
    }
    archive = path.join(directory(), 'docqa.archive');
    const summary = await exportArchive({ env, cwd: dataDir, out: archive });
    expect(summary.tables.find((table) => table.name === 'vector_embedding')?.rows).to.equal(2);
  });
  after(async () => {
    for (const created of made) await created.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("imports the vectors into the target's vector database, none into its main database", async () => {
    const dataDir = directory();
    const main = await database();
    const vectors = await database();
    await importArchive({ env: envOf(dataDir, main, vectors), cwd: dataDir, file: archive });
    expect(await rowsOf(vectors.url)).to.deep.equal(await rowsOf(sourceVectors.url));
    expect(await rowsOf(main.url)).to.deep.equal([]);
  });

  it('refuses a target whose vector database holds vectors, and changes nothing', async () => {
    const dataDir = directory();
    const main = await database();
    const error = await importArchive({ env: envOf(dataDir, main, sourceVectors), cwd: dataDir, file: archive }).then(
      () => null,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).to.match(/vector database of VECTORDB_URL already holds 2 vectors/);
    const client = new pg.Client({ connectionString: main.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        `select count(*) as n from pg_tables where tablename = 'document'`,
      );
      expect(Number(rows[0]!.n), 'the main database was not migrated or filled').to.equal(0);
    } finally {
      await client.end();
    }
  });
});
