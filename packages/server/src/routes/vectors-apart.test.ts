import { expect } from 'chai';
import pg from 'pg';
import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';
import { providerTokens } from '@docqa/plugin-api';
// The sweep's step itself, run here at once rather than waiting for its minute.
import { flushVectorDeletions } from '../../../core/src/modules/documents/vector-deletions.js';

/**
 * Vectors on a server of their own (VECTORDB_URL; #29 item 8): a second database on the test
 * PostgreSQL stands in for it. The embedded database cannot have a second server beside it.
 */
describe('vectors apart from the main database (VECTORDB_URL): search, access, deletion, health', function () {
  let t: SearchTestServer;
  const sweepTarget = () => ({
    db: t.server.kernel.db,
    vectorStore: t.server.kernel.resolve(providerTokens.vectorStore),
  });
  let vectors: { url: string; drop(): Promise<void> };
  let ids: Record<string, string>;
  let bob: string;
  const onVectors = async (sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: vectors.url });
    await client.connect();
    try {
      return (await client.query<{ document_id: string; n: string }>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  const vectorCount = async (documentId: string) =>
    Number((await onVectors('select count(*) as n from vector_embedding where document_id = $1', [documentId]))[0]!.n);
  const queued = async () =>
    Number((await t.server.kernel.db.query<{ n: string }>('select count(*) as n from vector_deletion')).rows[0]!.n);

  before(async function () {
    if (!process.env.TEST_DATABASE_URL) {
      console.log('    (skipped: set TEST_DATABASE_URL; a second PostgreSQL database stands in for the vector server)');
      this.skip();
    }
    vectors = await createTemporaryDatabase(process.env.TEST_DATABASE_URL);
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: true, env: { VECTORDB_URL: vectors.url } });
    ids = await t.uploadTexts({
      'merger.txt': 'Confidential merger plan: the acquisition of Zephyr Corporation closes in March.',
      'handbook.txt': 'Employee handbook: holidays, expenses and the travel policy for every employee.',
      'garden.txt': 'Gardening notes: tomatoes need sun, water and patience.',
    });
    const finance = (await t.call('POST', '/api/groups', t.admin, { name: 'Finance' })).body.id as string;
    const user = await t.call('POST', '/api/auth/users', t.admin, {
      username: 'bob',
      password: 'bob-password-1',
      role: 'editor',
    });
    expect(user.status).to.equal(201);
    expect(
      (await t.call('PUT', `/api/access/document/${ids['merger.txt']}`, t.admin, { group_ids: [finance] })).status,
    ).to.equal(200);
    bob = await t.login('bob', 'bob-password-1');
  });
  after(async () => {
    await t?.stop();
    await vectors?.drop();
  });

  it('keeps every vector on the vector database and reports it in /api/health', async () => {
    for (const id of Object.values(ids)) expect(await vectorCount(id)).to.be.greaterThan(0);
    const main = await t.server.kernel.db.query<{ n: string }>('select count(*) as n from vector_embedding');
    expect(Number(main.rows[0]!.n)).to.equal(0);
    const health = (await (await fetch(`${t.server.url}/api/health`)).json()) as Json;
    expect(health.checks).to.include({ database: 'ok', vectors: 'ok' });
  });

  it('hybrid and dense search answer from the vectors apart, and never a chunk the caller may not read', async () => {
    const documentIds = (body: Json) => (body.items as Json[]).map((item) => item.document_id as string);
    const hybrid = await t.call('POST', '/api/search', t.admin, { query: 'travel policy for employees', top_k: 3 });
    expect(hybrid.body.retrieval_settings.mode).to.equal('hybrid');
    expect(documentIds(hybrid.body)[0]).to.equal(ids['handbook.txt']);
    // Only stop words: the dense ranking alone answers, its candidates filtered on the main database.
    const dense = { query: 'the of and', top_k: 10 };
    const forAdmin = await t.call('POST', '/api/search', t.admin, dense);
    expect(forAdmin.body.retrieval_settings.mode).to.equal('dense');
    expect(documentIds(forAdmin.body)).to.include(ids['merger.txt']);
    const forBob = await t.call('POST', '/api/search', bob, dense);
    expect(documentIds(forBob.body)).to.have.members([ids['handbook.txt'], ids['garden.txt']]);
    const lexicalAndDense = await t.call('POST', '/api/search', bob, { query: 'Zephyr merger policy', top_k: 10 });
    expect(documentIds(lexicalAndDense.body)).to.not.include(ids['merger.txt']);
  });

  it('deleting a document deletes its vectors on the vector database, and nothing stays queued', async () => {
    expect((await t.call('DELETE', `/api/docs/${ids['garden.txt']}`, t.admin)).status).to.equal(204);
    expect(await vectorCount(ids['garden.txt']!)).to.equal(0);
    expect(await queued()).to.equal(0);
  });

  it('a crash between the two deletions leaves the document queued, and the sweep deletes its vectors', async () => {
    // The main database's half alone, as when the process dies before it reaches the vector database.
    await t.server.kernel.db.query('delete from document where id = $1', [ids['merger.txt']]);
    expect(await queued()).to.equal(1);
    expect(await vectorCount(ids['merger.txt']!)).to.be.greaterThan(0);
    // The sweep's work, run now rather than at its next minute (which would do the same).
    await flushVectorDeletions(sweepTarget());
    expect(await vectorCount(ids['merger.txt']!)).to.equal(0);
    expect(await queued()).to.equal(0);
    // Again: idempotent, nothing left to do.
    expect(await flushVectorDeletions(sweepTarget())).to.equal(0);
  });
});
