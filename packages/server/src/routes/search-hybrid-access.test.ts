import { expect } from 'chai';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

describe('search: hybrid retrieval and group access (tiny embedder, ENTERPRISE)', function () {
  let t: SearchTestServer;
  let ids: Record<string, string>;
  let alice: string;
  let bob: string;
  const documentIds = (body: Json) => (body.items as Json[]).map((item) => item.document_id as string);

  before(async () => {
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: true });
    ids = await t.uploadTexts({
      'merger.txt': 'Confidential merger plan: the acquisition of Zephyr Corporation closes in March.',
      'handbook.txt': 'Employee handbook: holidays, expenses and the travel policy for every employee.',
      'garden.txt': 'Gardening notes: tomatoes need sun, water and patience.',
    });
    const finance = (await t.call('POST', '/api/groups', t.admin, { name: 'Finance' })).body.id as string;
    for (const name of ['alice', 'bob']) {
      const user = await t.call('POST', '/api/auth/users', t.admin, {
        username: name,
        password: `${name}-password-1`,
        role: 'editor',
      });
      expect(user.status).to.equal(201);
      if (name === 'alice')
        expect((await t.call('PUT', `/api/groups/${finance}/members/${user.body.id}`, t.admin)).status).to.equal(204);
    }
    expect(
      (await t.call('PUT', `/api/access/document/${ids['merger.txt']}`, t.admin, { group_ids: [finance] })).status,
    ).to.equal(200);
    alice = await t.login('alice', 'alice-password-1');
    bob = await t.login('bob', 'bob-password-1');
  });
  after(() => t?.stop());

  it('fuses lexical and dense rankings and says so', async () => {
    const res = await t.call('POST', '/api/search', t.admin, { query: 'travel policy for employees', top_k: 3 });
    expect(res.status).to.equal(200);
    expect(res.body.retrieval_settings.mode).to.equal('hybrid');
    expect(documentIds(res.body)[0]).to.equal(ids['handbook.txt']);
  });

  it('a document granted to a group never reaches a user outside it, lexically or densely', async () => {
    // "policy" matches a document Bob may see, so both retrievers answer.
    const query = { query: 'Zephyr merger acquisition policy', top_k: 10 };
    expect(documentIds((await t.call('POST', '/api/search', alice, query)).body)).to.include(ids['merger.txt']);
    const forBob = await t.call('POST', '/api/search', bob, query);
    expect(forBob.body.retrieval_settings.mode).to.equal('hybrid');
    expect(documentIds(forBob.body)).to.not.include(ids['merger.txt']);
    // Only stop words: no lexical terms, so the dense ranking alone answers — over every visible chunk.
    const dense = { query: 'the of and', top_k: 10 };
    const denseForAdmin = await t.call('POST', '/api/search', t.admin, dense);
    expect(denseForAdmin.body.retrieval_settings.mode).to.equal('dense');
    expect(documentIds(denseForAdmin.body)).to.include(ids['merger.txt']);
    const denseForBob = await t.call('POST', '/api/search', bob, dense);
    expect(denseForBob.body.retrieval_settings.mode).to.equal('dense');
    expect(documentIds(denseForBob.body)).to.have.members([ids['handbook.txt'], ids['garden.txt']]);
    // Asking for the hidden document by id finds nothing either.
    const byId = await t.call('POST', '/api/search', bob, { ...dense, filters: { document_ids: [ids['merger.txt']] } });
    expect(byId.body.items).to.deep.equal([]);
  });
});
