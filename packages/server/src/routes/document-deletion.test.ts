import { expect } from 'chai';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

/** Several sentences, so the chunker (about 256 tokens a chunk) makes more than one chunk. */
const longText = (word: string, sentences: number) =>
  Array.from(
    { length: sentences },
    (_, i) => `${word} sentence ${i} ${'filler words about nothing in particular '.repeat(8)}.`,
  ).join('\n\n');

describe('documents: deleting in groups', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let ids: Record<string, string>;

  before(async () => {
    t = await startSearchServer({ plan: 'PRO', embedder: true });
    ids = await t.uploadTexts({
      'alpha.txt': longText('alpha', 30),
      'beta.txt': 'beta is short',
      'gamma.txt': 'gamma is short too',
      'delta.txt': longText('delta', 30),
      'kept.txt': 'kiwi stays in the index',
    });
  });
  after(() => t?.stop());

  const chunkCounts = async () => {
    const { rows } = await t.server.kernel.db.query<{ filename: string; chunk_count: number }>(
      'select filename, chunk_count from document',
    );
    return Object.fromEntries(rows.map((row) => [row.filename, Number(row.chunk_count)]));
  };

  it('groups documents up to a number of chunks, a larger document alone, unknown ids left out', async () => {
    const counts = await chunkCounts();
    expect(counts['alpha.txt']).to.be.greaterThan(2);
    expect(counts['delta.txt']).to.be.greaterThan(2);
    const missing = '00000000-0000-4000-8000-000000000000';
    const groups = await t.server.services.documents.repository.deletionGroups(
      [ids['alpha.txt']!, ids['beta.txt']!, ids['gamma.txt']!, ids['delta.txt']!, missing],
      2,
    );
    const byName = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    // One upload shares its created_at, so the order is the ids': the two short ones end up
    // together only where they are neighbours. What holds whatever the order: no group passes
    // 2 chunks unless it is one document, and every known document is in exactly one group.
    const named = groups.map((group) => group.map((id) => byName[id]!));
    expect(named.flat().sort()).to.deep.equal(['alpha.txt', 'beta.txt', 'delta.txt', 'gamma.txt']);
    for (const group of named) {
      const chunks = group.reduce((sum, name) => sum + counts[name]!, 0);
      if (group.length > 1) expect(chunks, group.join(', ')).to.be.at.most(2);
    }
    expect(named.find((group) => group.includes('alpha.txt'))).to.deep.equal(['alpha.txt']);
    expect(named.find((group) => group.includes('delta.txt'))).to.deep.equal(['delta.txt']);
    // Everything in one group when the budget allows it.
    const one = await t.server.services.documents.repository.deletionGroups(Object.values(ids), 10_000);
    expect(one).to.have.length(1);
    expect(one[0]).to.have.members(Object.values(ids));
  });

  it('deletes group by group: chunks, postings, vectors and bytes go, term statistics stay exact, others stay', async () => {
    const db = t.server.kernel.db;
    const doomed = [ids['alpha.txt']!, ids['beta.txt']!, ids['gamma.txt']!, ids['delta.txt']!];
    const missing = '00000000-0000-4000-8000-000000000001';
    const result = await t.server.services.documents.delete([...doomed, missing], 1);
    expect(result.deleted).to.have.members(doomed);
    expect(result.not_found).to.deep.equal([missing]);
    const left = async (sql: string) => Number((await db.query<{ n: string }>(sql, [doomed])).rows[0]!.n);
    expect(await left('select count(*) as n from document where id = any($1::uuid[])')).to.equal(0);
    expect(await left('select count(*) as n from chunk where document_id = any($1::uuid[])')).to.equal(0);
    expect(await left('select count(*) as n from chunk_term where document_id = any($1::uuid[])')).to.equal(0);
    expect(await left('select count(*) as n from vector_embedding where document_id = any($1::text[])')).to.equal(0);
    const counted = await db.query<{ term: string; df: string }>(
      `select t.term, count(*) as df from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' group by t.term order by t.term`,
    );
    const kept = await db.query<{ term: string; df: number }>(
      'select term, df from term_stats where df > 0 order by term',
    );
    expect(kept.rows.map((row) => [row.term, Number(row.df)])).to.deep.equal(
      counted.rows.map((row) => [row.term, Number(row.df)]),
    );
    expect(
      Number(
        (
          await db.query<{ n: string }>('select count(*) as n from vector_embedding where document_id = $1', [
            ids['kept.txt'],
          ])
        ).rows[0]!.n,
      ),
    ).to.equal(1);
    const search = await t.call('POST', '/api/search', t.admin, { query: 'kiwi' });
    expect(search.status).to.equal(200);
    expect(JSON.stringify(search.body)).to.include('kept.txt');
  });
});
