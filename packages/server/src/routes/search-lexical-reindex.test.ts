import { expect } from 'chai';
import { analyzerVersion } from '@docqa/core';
import type { Db } from '@docqa/plugin-api';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';
import { analyseChunk, queueLexicalReindexIfStale, storedAnalyzerVersion, writePostings } from '@docqa/core/search';

/** Every posting as (chunk, term, tf, length), sorted: what the index holds, to compare whole. */
async function postings(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ p: string }>(
    `select chunk_id || ' ' || term || ' ' || tf || ' ' || chunk_length as p from chunk_term order by 1`,
  );
  return rows.map((row) => row.p);
}

async function dfConsistent(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ n: string }>(
    `select count(*) as n from (
       (select term, df from term_stats except select t.term, count(*)::int from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' group by t.term)
       union all
       (select t.term, count(*)::int from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' group by t.term except select term, df from term_stats)) x`,
  );
  return Number(rows[0]?.n) === 0;
}

describe('search: lexical re-index after a change of analysis', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let db: Db;

  before(async () => {
    t = await startSearchServer({ plan: 'PRO', embedder: false });
    db = t.server.kernel.db;
  });
  after(() => t?.stop());

  it('re-analyses every chunk as a job with progress, search answering meanwhile, and records the version', async () => {
    await t.uploadTexts({
      'de.txt': 'Die Häuser der Stadt wurden nach dem großen Brand aus Stein wieder aufgebaut, schöner als zuvor.',
      'en.txt': 'The houses of the town were rebuilt in stone after the great fire, finer than before.',
    });
    expect(await storedAnalyzerVersion(db)).to.equal(analyzerVersion);
    const current = await postings(db);
    // Postings of an "older analysis": every chunk analysed as English with no language stored.
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string; text: string; document_id: string }>(
        'select id, text, document_id from chunk',
      );
      await tx.query('delete from chunk_term');
      for (const row of rows) await writePostings(tx, row.document_id, [analyseChunk(row.id, row.text, 'en')]);
      await tx.query('update chunk set language = null');
      await tx.query('update lexical_analyzer set version = 1');
    });
    expect(await postings(db)).to.not.deep.equal(current);
    expect(await dfConsistent(db)).to.equal(true);
    const search = await t.call('POST', '/api/search', t.admin, { query: 'Häuser Stadt' });
    expect(search.status).to.equal(200);

    const jobId = await queueLexicalReindexIfStale(db, t.server.kernel.jobs);
    expect(jobId).to.be.a('string');
    let job = (await t.call('GET', `/api/jobs/${jobId}`, t.admin)).body;
    for (let i = 0; i < 200 && job.status !== 'succeeded' && job.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await t.call('GET', `/api/jobs/${jobId}`, t.admin)).body;
    }
    expect(job).to.deep.include({ kind: 'lexical_reindex', status: 'succeeded', progress: { done: 2, total: 2 } });
    expect(await postings(db)).to.deep.equal(current);
    expect(await dfConsistent(db)).to.equal(true);
    expect(await storedAnalyzerVersion(db)).to.equal(analyzerVersion);
    const { rows } = await db.query<{ language: string }>('select language from chunk order by language');
    expect(rows.map((row) => row.language)).to.deep.equal(['de', 'en']);
    // Current postings: nothing more to do.
    expect(await queueLexicalReindexIfStale(db, t.server.kernel.jobs)).to.equal(null);
  });
});
