import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Db, SqlExecutor } from '@docqa/plugin-api';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';
import { insertDocument } from '../testing/indexed-document.test-support.js';

/** BM25's N and total length as a search once summed them: chunks and terms of indexed documents. */
async function countedTotals(db: SqlExecutor): Promise<{ chunks: number; terms: number }> {
  const { rows } = await db.query<{ chunks: string; terms: string }>(
    `select coalesce(sum(chunk_count), 0) as chunks, coalesce(sum(term_count), 0) as terms
     from document where status = 'indexed'`,
  );
  return { chunks: Number(rows[0]?.chunks), terms: Number(rows[0]?.terms) };
}

async function keptTotals(db: SqlExecutor): Promise<{ chunks: number; terms: number }> {
  const { rows } = await db.query<{ chunks: string; terms: string }>('select chunks, terms from lexical_corpus');
  expect(rows).to.have.length(1);
  return { chunks: Number(rows[0]?.chunks), terms: Number(rows[0]?.terms) };
}

describe('search: corpus totals (N, total length) kept in lexical_corpus', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let db: Db;
  const expectConsistent = async () => expect(await keptTotals(db)).to.deep.equal(await countedTotals(db));

  before(async () => {
    t = await startSearchServer({ plan: 'PRO', embedder: false });
    db = t.server.kernel.db;
  });
  after(() => t?.stop());

  it('counts documents indexed through the pipeline, re-indexed, and deleted', async () => {
    const ids = await t.uploadTexts({
      'north.txt': 'The kiwi and the mango grow by the lemon tree, and the kiwi ripens first.',
      'south.txt': 'The mango, the melon and the plum are sold at the market.',
    });
    await expectConsistent();
    expect((await keptTotals(db)).chunks).to.be.greaterThan(0);
    const res = await t.call('POST', '/api/index/rebuild', t.admin);
    expect(res.status).to.equal(202);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = await t.call('GET', `/api/jobs/${res.body.job_id}`, t.admin);
      if (['succeeded', 'failed', 'cancelled'].includes(job.body.status)) break;
      if (Date.now() > deadline) throw new Error('the rebuild did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expectConsistent();
    expect((await t.call('DELETE', `/api/docs/${ids['north.txt']}`, t.admin)).status).to.equal(204);
    await expectConsistent();
  });

  it('follows status changes, new counts while indexed, bulk inserts as indexed, and failed transactions', async () => {
    const id = await insertDocument(db, ['papaya papaya guava', 'guava fig']);
    await expectConsistent();
    for (const status of ['indexing', 'failed', 'indexed', 'indexed']) {
      await db.query('update document set status = $2 where id = $1', [id, status]);
      await expectConsistent();
    }
    // The lexical re-index writes a new length while the document stays indexed.
    await db.query('update document set term_count = term_count + 7, chunk_count = chunk_count + 1 where id = $1', [
      id,
    ]);
    await expectConsistent();
    const bulk = crypto.randomUUID();
    await db.query(
      `insert into document (id, path, filename, media_type, size_bytes, content_hash, status, title, chunk_count,
         term_count) values ($1, 'bulk.txt', 'bulk.txt', 'text/plain', 10, $2, 'indexed', 'bulk', 3, 40)`,
      [bulk, crypto.createHash('sha256').update(bulk).digest('hex')],
    );
    await expectConsistent();
    const before = await keptTotals(db);
    const failure = await db
      .transaction(async (tx) => {
        await insertDocument(tx, ['tamarind tamarind', 'kiwi tamarind']);
        throw new Error('the model server went away');
      })
      .then(
        () => null,
        (error: Error) => error.message,
      );
    expect(failure).to.equal('the model server went away');
    expect(await keptTotals(db)).to.deep.equal(before);
    await db.query('delete from document where id = any($1::uuid[])', [[id, bulk]]);
    await expectConsistent();
  });

  it('stays exact under concurrent ingests and deletes', async () => {
    const doomed = await Promise.all(
      Array.from({ length: 6 }, (_, i) => insertDocument(db, [`cherry ${i} plum`, 'plum plum'])),
    );
    const words = ['apple', 'pear', 'quince', 'lime', 'date', 'olive'];
    await Promise.all([
      ...words.map((word, i) =>
        db.transaction(async (tx) => {
          await insertDocument(tx, [`${word} ${word} tree`, `${word} jam`.repeat(i + 1)]);
          await new Promise((resolve) => setTimeout(resolve, 20));
          await insertDocument(tx, [`${word} pie`]);
        }),
      ),
      ...doomed.map((id) => db.query('delete from document where id = $1', [id])),
      ...doomed.slice(0, 3).map((id) => db.query(`update document set status = 'indexing' where id = $1`, [id])),
    ]);
    await expectConsistent();
  });
});
