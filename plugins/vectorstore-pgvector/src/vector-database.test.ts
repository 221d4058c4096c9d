import crypto from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { DocqaError, providerTokens } from '@docqa/plugin-api';
import { describeVectorStoreConformance, startTestKernel, type TestKernel } from '@docqa/plugin-testkit';
import vectorstorePgvectorPlugin from './index.js';
import { vectorDatabaseUrl } from './vector-database.js';

describe('vectorstore-pgvector: VECTORDB_URL and VECTORDB_API_KEY', () => {
  it('refuses a URL that is not PostgreSQL, saying what to do', () => {
    for (const url of ['http://vectors:6333', 'https://qdrant.example', 'not a url']) {
      expect(() => vectorDatabaseUrl(url, undefined))
        .to.throw(DocqaError, /VECTORDB_URL .* is not a PostgreSQL URL.*Unset VECTORDB_URL/)
        .with.property('code', 'config_invalid');
    }
  });

  it("takes VECTORDB_API_KEY as the password when the URL has none, never the placeholder or over the URL's own", () => {
    expect(vectorDatabaseUrl('postgres://docqa@vectors:5432/v', 's3cret/+')).to.equal(
      'postgres://docqa:s3cret%2F+@vectors:5432/v',
    );
    expect(vectorDatabaseUrl('postgresql://docqa:own@vectors/v', 'key')).to.equal('postgresql://docqa:own@vectors/v');
    expect(vectorDatabaseUrl('postgres://docqa@vectors/v', 'change-me-vectordb-key')).to.equal(
      'postgres://docqa@vectors/v',
    );
  });

  it('stops start-up with that error when VECTORDB_URL is an http URL', async () => {
    const failure = await startTestKernel({
      plugins: [{ plugin: vectorstorePgvectorPlugin }],
      env: { VECTORDB_URL: 'http://vectors.example:6333' },
    }).then(
      async (kernel) => {
        await kernel.dispose();
        return null;
      },
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.match(/vectorstore-pgvector[\s\S]*is not a PostgreSQL URL/);
  });
});

/**
 * A second database beside the one TEST_DATABASE_URL names stands in for a separate vector server.
 * The embedded database cannot have a second server, so without TEST_DATABASE_URL this is skipped.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

async function createVectorDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(url);
  const name = `${base.pathname.slice(1) || 'docqa'}_vectors_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const vectors = new URL(url);
  vectors.pathname = `/${name}`;
  return { url: vectors.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

describe('vectorstore-pgvector on a vector database of its own (VECTORDB_URL)', function () {
  before(function () {
    if (!serverUrl) {
      console.log('    (skipped: set TEST_DATABASE_URL; a second PostgreSQL database stands in for the vector server)');
      this.skip();
    }
  });

  describeVectorStoreConformance('vectorstore-pgvector on VECTORDB_URL', {
    async start() {
      const vectors = await createVectorDatabase(serverUrl as string);
      const kernel = await startTestKernel({
        plugins: [{ plugin: vectorstorePgvectorPlugin }],
        env: { VECTORDB_URL: vectors.url },
      });
      return {
        store: kernel.resolve(providerTokens.vectorStore),
        dispose: async () => {
          await kernel.dispose();
          await vectors.drop();
        },
      };
    },
  });

  describe('where the vectors and the migrations go', () => {
    let vectors: { url: string; drop(): Promise<void> };
    let kernel: TestKernel;
    const onVectors = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: vectors.url });
      await client.connect();
      try {
        return (await client.query<R>(sql, params)).rows;
      } finally {
        await client.end();
      }
    };

    before(async function () {
      this.timeout(120_000);
      vectors = await createVectorDatabase(serverUrl as string);
      // The password comes from VECTORDB_API_KEY: the URL given carries none.
      const withoutPassword = new URL(vectors.url);
      const password = decodeURIComponent(withoutPassword.password);
      withoutPassword.password = '';
      kernel = await startTestKernel({
        plugins: [{ plugin: vectorstorePgvectorPlugin }],
        env: { VECTORDB_URL: withoutPassword.toString(), VECTORDB_API_KEY: password || 'unused' },
      });
    });
    after(async function () {
      this.timeout(60_000);
      await kernel?.dispose();
      await vectors?.drop();
    });

    it('writes vectors to the vector database only, with its migrations recorded there', async () => {
      const store = kernel.resolve(providerTokens.vectorStore);
      await store.upsert({ model: 'apart', dimensions: 3 }, [
        { chunkId: 'c1', documentId: 'd1', embedding: [1, 0, 0] },
      ]);
      expect(await onVectors('select chunk_id, document_id from vector_embedding')).to.deep.equal([
        { chunk_id: 'c1', document_id: 'd1' },
      ]);
      expect(
        (await onVectors<{ name: string }>('select name from docqa_vector_migrations')).map((r) => r.name),
      ).to.deep.equal(['0001_vectors']);
      const { rows } = await kernel.db.query<{ n: string }>('select count(*) as n from vector_embedding');
      expect(Number(rows[0]?.n), "the main database's table stays empty").to.equal(0);
      await store.ping?.();
    });

    it('a second start finds the migrations applied and the vectors where they were', async () => {
      const second = await startTestKernel({
        plugins: [{ plugin: vectorstorePgvectorPlugin }],
        env: { VECTORDB_URL: vectors.url },
      });
      try {
        expect(await second.resolve(providerTokens.vectorStore).count({ model: 'apart', dimensions: 3 })).to.equal(1);
      } finally {
        await second.dispose();
      }
    });
  });
});
