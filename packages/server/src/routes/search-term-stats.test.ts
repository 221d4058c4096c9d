import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Db, SqlExecutor } from '@docqa/plugin-api';
import { chunkId } from '@docqa/core/documents';
import { bm25, corpusLanguages, idf, lexicalSearch, queryTerms } from '@docqa/core/search';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';
import { insertChunks, insertDocument } from '../testing/indexed-document.test-support.js';

/** df as BM25 defines it: postings of chunks of indexed documents, counted from scratch. */
async function countedDf(db: SqlExecutor): Promise<Record<string, number>> {
  const { rows } = await db.query<{ term: string; df: string }>(
    `select t.term, count(*) as df from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' group by t.term order by t.term`,
  );
  return Object.fromEntries(rows.map((row) => [row.term, Number(row.df)]));
}

async function keptDf(db: SqlExecutor): Promise<Record<string, number>> {
  const { rows } = await db.query<{ term: string; df: number }>('select term, df from term_stats order by term');
  return Object.fromEntries(rows.map((row) => [row.term, Number(row.df)]));
}

describe('search: document frequencies kept in term_stats', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let db: Db;
  const expectConsistent = async () => expect(await keptDf(db)).to.deep.equal(await countedDf(db));

  before(async () => {
    t = await startSearchServer({ plan: 'PRO', embedder: false });
    db = t.server.kernel.db;
  });
  after(() => t?.stop());

  it('counts the postings of documents indexed through the pipeline, and forgets a deleted one', async () => {
    const ids = await t.uploadTexts({
      'north.txt': 'The kiwi and the mango grow by the lemon tree, and the kiwi ripens first.',
      'south.txt': 'The mango, the melon and the plum are sold at the market. Second line with melon.',
    });
    await expectConsistent();
    const kept = await keptDf(db);
    expect(kept.kiwi).to.equal(1);
    expect(kept.mango).to.equal(2);
    expect((await t.call('DELETE', `/api/docs/${ids['north.txt']}`, t.admin)).status).to.equal(204);
    await expectConsistent();
    const after = await keptDf(db);
    expect(after).to.not.have.property('kiwi');
    expect(after.mango).to.equal(1);
  });

  it('leaves out a document while it is re-indexed or failed, and counts it again once indexed', async () => {
    const ids = await t.uploadTexts({ 'reindexed.txt': 'papaya papaya guava' });
    const id = ids['reindexed.txt'] as string;
    expect((await keptDf(db)).papaya).to.equal(1);
    await db.query(`update document set status = 'indexing' where id = $1`, [id]);
    expect(await keptDf(db)).to.not.have.property('papaya');
    await expectConsistent();
    await db.query(`update document set status = 'failed' where id = $1`, [id]);
    expect(await keptDf(db)).to.not.have.property('papaya');
    await db.query(`update document set status = 'indexed' where id = $1`, [id]);
    expect((await keptDf(db)).papaya).to.equal(1);
    // A metadata change that keeps the document indexed counts nothing twice.
    await db.query(`update document set status = 'indexed', title = 'renamed' where id = $1`, [id]);
    await expectConsistent();
  });

  it('stays exact through a rebuild of the whole index', async () => {
    await t.uploadTexts({ 'rebuilt.txt': 'quince quince fig. Fig tree.' });
    const before = await keptDf(db);
    const res = await t.call('POST', '/api/index/rebuild', t.admin);
    expect(res.status).to.equal(202);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = await t.call('GET', `/api/jobs/${res.body.job_id}`, t.admin);
      if (['succeeded', 'failed', 'cancelled'].includes(job.body.status)) {
        expect(job.body.status).to.equal('succeeded');
        break;
      }
      if (Date.now() > deadline) throw new Error('the rebuild did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await keptDf(db)).to.deep.equal(before);
    await expectConsistent();
  });

  it('an ingest transaction that fails changes nothing', async () => {
    const before = await keptDf(db);
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
    expect(await keptDf(db)).to.deep.equal(before);
    await expectConsistent();
  });

  it('counts postings written or removed while their document is indexed (a bulk load, chunks deleted directly)', async () => {
    const id = await db.transaction(async (tx) => {
      const id = crypto.randomUUID();
      await tx.query(
        `insert into document (id, path, filename, media_type, size_bytes, content_hash, status, title, chunk_count) values ($1, 'bulk.txt', 'bulk.txt', 'text/plain', 10, $2, 'indexed', 'bulk', 2)`,
        [id, crypto.createHash('sha256').update(id).digest('hex')],
      );
      await insertChunks(tx, id, ['durian lychee', 'durian rambutan']);
      return id;
    });
    expect((await keptDf(db)).durian).to.equal(2);
    await db.query('delete from chunk where id = $1', [chunkId(id, 1)]);
    expect((await keptDf(db)).durian).to.equal(1);
    expect(await keptDf(db)).to.not.have.property('rambutan');
    await db.query('delete from document where id = $1', [id]);
    expect(await keptDf(db)).to.not.have.property('durian');
    await expectConsistent();
  });

  it('two transactions changing the same terms in opposite orders wait for each other instead of deadlocking', async () => {
    // Each transaction indexes a document of one term, then one of the other: without one lock
    // order for every change, each would hold the row the other needs next.
    const [melonFirst, zebraFirst, melonSecond, zebraSecond] = await db.transaction(async (tx) => {
      const ids: string[] = [];
      for (const word of ['melon', 'zebra', 'melon', 'zebra'])
        ids.push(await insertDocument(tx, [`${word} ${word}`], 'indexing'));
      return ids;
    });
    const before = await keptDf(db);
    const index = (tx: SqlExecutor, id: string) =>
      tx.query(`update document set status = 'indexed' where id = $1`, [id]);
    const pause = () => new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all([
      db.transaction(async (tx) => {
        await index(tx, melonFirst as string);
        await pause();
        await index(tx, zebraSecond as string);
      }),
      db.transaction(async (tx) => {
        await index(tx, zebraFirst as string);
        await pause();
        await index(tx, melonSecond as string);
      }),
    ]);
    const kept = await keptDf(db);
    expect([kept.melon, kept.zebra]).to.deep.equal([(before.melon ?? 0) + 2, (before.zebra ?? 0) + 2]);
    await expectConsistent();
  });
});

describe('search: BM25 top k with frequent terms pruned (MaxScore) equals the full ranking', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let db: Db;
  let restrictedGroup: string;

  // A corpus where a few words are in most chunks and the rest in a handful: the shape that lets
  // the frequent terms be looked up rather than scanned.
  const common = ['alpha', 'bravo', 'charli'];
  const rare = Array.from(
    { length: 40 },
    (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`,
  );
  let random = 1;
  const next = () => (random = (random * 48271) % 2147483647) / 2147483647;

  before(async () => {
    t = await startSearchServer({ plan: 'PRO', embedder: false });
    db = t.server.kernel.db;
    await db.transaction(async (tx) => {
      for (let d = 0; d < 40; d++) {
        const texts = Array.from({ length: 5 }, () => {
          const words: string[] = [];
          for (const word of common) for (let n = Math.floor(next() * 4 - 0.8); n > 0; n--) words.push(word);
          for (let n = 1 + Math.floor(next() * 3); n > 0; n--)
            words.push(rare[Math.floor(next() * next() * rare.length)] as string);
          for (let n = Math.floor(next() * 8); n > 0; n--) words.push('filler');
          return words.sort(() => next() - 0.5).join(' ');
        });
        await insertDocument(tx, texts);
      }
    });
    // Most documents visible only to a group the searching user is not in: too few of the best
    // chunks are left for a deep top k, which must then be ranked among the visible ones.
    restrictedGroup = crypto.randomUUID();
    await db.query(`insert into user_group (id, name) values ($1, 'restricted')`, [restrictedGroup]);
    await db.query(
      `insert into resource_access (resource_type, resource_id, group_id) select 'document', id::text, $1 from document order by id limit 32`,
      [restrictedGroup],
    );
  });
  after(() => t?.stop());

  /** BM25 of every chunk computed here from the postings, the documents the scope allows ranked, ties by chunk id. */
  async function referenceRanking(query: string, topK: number, visibleToGroups: string[] | null) {
    const counts = queryTerms(query, await corpusLanguages(db));
    const { rows: postings } = await db.query<{
      term: string;
      chunk_id: string;
      document_id: string;
      tf: number;
      chunk_length: number;
    }>(
      `select t.term, t.chunk_id, t.document_id, t.tf, t.chunk_length from chunk_term t join document d on d.id = t.document_id and d.status = 'indexed' where t.term = any($1::text[])`,
      [[...counts.keys()]],
    );
    const { rows: corpus } = await db.query<{ chunks: string; total: string }>(
      `select sum(chunk_count) as chunks, sum(term_count) as total from document where status = 'indexed'`,
    );
    const chunks = Number(corpus[0]?.chunks);
    const avgdl = Number(corpus[0]?.total) / chunks;
    const df = new Map<string, number>();
    for (const posting of postings) df.set(posting.term, (df.get(posting.term) ?? 0) + 1);
    const { rows: hidden } = await db.query<{ id: string }>(
      `select resource_id as id from resource_access where resource_type = 'document' and not (group_id = any($1::uuid[]))`,
      [visibleToGroups ?? []],
    );
    const hiddenIds = new Set(visibleToGroups ? hidden.map((row) => row.id) : []);
    const scores = new Map<string, number>();
    for (const p of postings) {
      if (hiddenIds.has(p.document_id)) continue;
      const weight = (counts.get(p.term) as number) * idf(chunks, df.get(p.term) as number);
      scores.set(
        p.chunk_id,
        (scores.get(p.chunk_id) ?? 0) +
          (weight * p.tf * (bm25.k1 + 1)) / (p.tf + bm25.k1 * (1 - bm25.b + (bm25.b * p.chunk_length) / avgdl)),
      );
    }
    return {
      ranked: [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, topK),
      scores,
    };
  }

  it('answers the same chunks with the same scores for every k, whether or not the caller sees everything', async () => {
    const statements: string[] = [];
    const recording = {
      query: (sql: string, params?: unknown[]) => (statements.push(sql), db.query(sql, params)),
    } as unknown as Db;
    const queries = [
      ...rare.slice(0, 12).map((word, i) => `${word} ${common[i % 3]} ${common[(i + 1) % 3]}`),
      `${rare[0]} ${rare[1]} alpha bravo charli`,
      'alpha bravo',
      'alpha alpha charli filler',
      `${rare[30]} filler`,
    ];
    for (const query of queries) {
      for (const topK of [1, 3, 10, 50]) {
        for (const groups of [null, [] as string[]]) {
          const { ranked, scores } = await referenceRanking(query, topK, groups);
          const hits = await lexicalSearch(recording, query, { visibleToGroups: groups, topK });
          const label = `${query} top ${topK}${groups ? ' restricted' : ''}`;
          // Rank by rank the same scores, each the chunk's own: the same ranking up to chunks whose
          // scores differ only by rounding (equal texts), which may come in either order.
          expect(
            hits.map((hit) => hit.score),
            label,
          ).to.have.length(ranked.length);
          hits.forEach((hit, i) => {
            expect(hit.score, label).to.be.closeTo((ranked[i] as [string, number])[1], 1e-9);
            expect(scores.get(hit.chunkId), label).to.be.closeTo(hit.score, 1e-9);
          });
          expect(new Set(hits.map((hit) => hit.chunkId)).size, label).to.equal(hits.length);
        }
      }
    }
    // The pruned path ran (frequent terms looked up), and so did the fallback for a caller who sees few documents.
    expect(statements.some((sql) => sql.includes('partial_top'))).to.equal(true);
    expect(statements.some((sql) => sql.includes('eligible as materialized'))).to.equal(true);
  });
});
