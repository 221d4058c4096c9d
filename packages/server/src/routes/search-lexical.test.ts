import { expect } from 'chai';
import { reciprocalRankFusion } from '@docqa/core/search';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

describe('search: BM25 lexical retrieval (no embedder)', function () {
  let t: SearchTestServer;
  let ids: Record<string, string>;
  const search = (body: unknown, token: string | null = t.admin) => t.call('POST', '/api/search', token, body);

  before(async () => {
    t = await startSearchServer({ plan: 'PRO', embedder: false });
    // Words the Porter stemmer leaves as they are, so the terms and lengths below can be read off.
    ids = await t.uploadTexts({
      'one.txt': 'kiwi mango kiwi lemon',
      'two.txt': 'mango melon melon melon plum',
      'three.txt': 'plum plum kiwi fig grape lime',
    });
  });
  after(() => t?.stop());

  it('scores BM25 exactly (k1 0.9, b 0.4, Lucene idf) over a hand-checked corpus', async () => {
    const k1 = 0.9;
    const b = 0.4;
    const N = 3;
    const avgdl = (4 + 5 + 6) / 3;
    const idf = (df: number) => Math.log(1 + (N - df + 0.5) / (df + 0.5));
    const part = (tf: number, dl: number, df: number) =>
      (idf(df) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / avgdl));
    // "kiwi" is in one (tf 2, dl 4) and three (tf 1, dl 6); "melon" only in two (tf 3, dl 5).
    const expected = new Map([
      [ids['one.txt'], part(2, 4, 2)],
      [ids['two.txt'], part(3, 5, 1)],
      [ids['three.txt'], part(1, 6, 2)],
    ]);
    const res = await search({ query: 'Kiwis and melons?' });
    expect(res.status).to.equal(200);
    expect(res.body.retrieval_settings).to.deep.equal({
      mode: 'lexical',
      top_k: 10,
      filters: {},
      rewritten_query: null,
    });
    expect(res.body.items).to.have.length(3);
    for (const item of res.body.items as Json[])
      expect(item.score).to.be.closeTo(expected.get(item.document_id) as number, 1e-6);
    const scores = (res.body.items as Json[]).map((item) => item.score as number);
    expect(scores).to.deep.equal([...scores].sort((x, y) => y - x));
    expect(res.body.items[0]).to.include({
      document_id: ids['two.txt'],
      title: 'two.txt',
      path: 'two.txt',
      text: 'mango melon melon melon plum',
    });
    expect(res.body.timing.retrieve).to.be.a('number');
    expect(res.body.timing.total).to.be.at.least(res.body.timing.retrieve);
  });

  it('ranks chunks matching more query terms first, a repeated word counts once; top_k, filters', async () => {
    const both = await search({ query: 'fig lime grape', top_k: 1 });
    expect((both.body.items as Json[]).map((item) => item.document_id)).to.deep.equal([ids['three.txt']]);
    const twice = await search({ query: 'kiwi kiwi' });
    const once = await search({ query: 'kiwi' });
    // A query is a set of terms (analyzeQuery): writing a word twice does not weigh it twice.
    expect(twice.body.items[0].score).to.be.closeTo(once.body.items[0].score, 1e-9);
    const filtered = await search({ query: 'kiwi', filters: { document_ids: [ids['three.txt']] } });
    expect((filtered.body.items as Json[]).map((item) => item.document_id)).to.deep.equal([ids['three.txt']]);
    expect((await search({ query: 'kiwi', filters: { metadata: { team: 'none' } } })).body.items).to.deep.equal([]);
    expect((await search({ query: 'the of and' })).body.items).to.deep.equal([]);
  });

  it('a deleted document and its postings disappear from results', async () => {
    const { fig } = await t
      .uploadTexts({ 'fig.txt': 'fig fig fig orchard' })
      .then((created) => ({ fig: created['fig.txt'] as string }));
    expect((await search({ query: 'orchard' })).body.items[0].document_id).to.equal(fig);
    expect((await t.call('DELETE', `/api/docs/${fig}`, t.admin)).status).to.equal(204);
    expect((await search({ query: 'orchard' })).body.items).to.deep.equal([]);
    const left = await t.server.kernel.db.query<{ n: string }>(
      'select count(*) as n from chunk_term where document_id = $1',
      [fig],
    );
    expect(Number(left.rows[0]?.n)).to.equal(0);
  });

  it('validates the body and needs a token', async () => {
    expect((await search({ query: '' })).status).to.equal(422);
    expect((await search({ query: '   ' })).status).to.equal(422);
    expect((await search({ query: 'x'.repeat(8001) })).status).to.equal(422);
    expect((await search({ query: 'x'.repeat(8000) })).status).to.equal(200);
    expect((await search({ query: 42 })).status).to.equal(422);
    expect((await search({ query: 'kiwi', top_k: 101 })).status).to.equal(422);
    expect((await search({ query: 'kiwi', top_k: 0 })).status).to.equal(422);
    expect((await search({ query: 'kiwi', extra: true })).status).to.equal(422);
    expect((await search({ query: 'kiwi' }, null)).status).to.equal(401);
  });

  it('refuses metadata filters past their limits with 422 naming the setting (10,000 keys took 105 s)', async () => {
    const manyKeys = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, 'value']));
    const tooMany = await search({ query: 'kiwi', filters: { metadata: manyKeys } });
    expect([tooMany.status, tooMany.body.code, tooMany.body.setting]).to.deep.equal([
      422,
      'validation_failed',
      'FILTER_MAX_KEYS',
    ]);
    const longValue = await search({ query: 'kiwi', filters: { metadata: { team: 'v'.repeat(1025) } } });
    expect([longValue.status, longValue.body.setting]).to.deep.equal([422, 'FILTER_MAX_VALUE_LENGTH']);
    const atTheLimit = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`key${i}`, 'value']));
    expect((await search({ query: 'kiwi', filters: { metadata: atTheLimit } })).status).to.equal(200);
  });

  it('fuses rankings by reciprocal rank (k = 60)', () => {
    const fused = reciprocalRankFusion([
      [
        { chunkId: 'a', score: 9 },
        { chunkId: 'b', score: 5 },
      ],
      [
        { chunkId: 'b', score: 0.9 },
        { chunkId: 'c', score: 0.8 },
      ],
    ]);
    expect(fused.map((hit) => hit.chunkId)).to.deep.equal(['b', 'a', 'c']);
    expect(fused[0]?.score).to.be.closeTo(1 / 62 + 1 / 61, 1e-12);
  });
});
