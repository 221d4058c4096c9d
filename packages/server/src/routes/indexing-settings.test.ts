import { expect } from 'chai';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

/**
 * Spec 8.2's indexing variables seen at work through the standard preset: INDEX_UPSERT_BATCH_SIZE
 * sizes the index writer's statements (chunks and vectors alike), INDEXING_OCR_LANGUAGES reaches
 * the OCR extractor's options.
 */
describe('indexing variables (spec 8.2)', function () {
  this.timeout(180_000);
  let t: SearchTestServer;

  before(async () => {
    t = await startSearchServer({
      plan: 'ENTERPRISE',
      embedder: true,
      env: { INDEX_UPSERT_BATCH_SIZE: '3', INDEXING_OCR_ENABLED: 'true', INDEXING_OCR_LANGUAGES: 'eng,zzz' },
    });
  });
  after(() => t?.stop());

  it('INDEX_UPSERT_BATCH_SIZE: chunks and vectors are written that many rows a statement', async () => {
    const db = t.server.kernel.db;
    // A statement-level trigger on each table records how many rows each insert statement brought.
    await db.query('create table statement_rows (tbl text, n integer, at timestamptz default clock_timestamp())');
    await db.query(`create function note_statement_rows() returns trigger language plpgsql as $$
      begin insert into statement_rows (tbl, n) select TG_TABLE_NAME, count(*) from inserted; return null; end $$`);
    for (const table of ['chunk', 'vector_embedding'])
      await db.query(
        `create trigger note_statement_rows after insert on ${table} referencing new table as inserted
          for each statement execute function note_statement_rows()`,
      );
    try {
      // Ten sections of about 300 tokens: ten chunks.
      const section = (n: number) => `Section ${n}. ${'The archive keeps every record for audit. '.repeat(40)}`;
      const ids = await t.uploadTexts({
        'manual.txt': Array.from({ length: 10 }, (_, n) => section(n + 1)).join('\n\n'),
      });
      const chunks = Number(
        (await db.query<{ n: string }>('select count(*) as n from chunk where document_id = $1', [ids['manual.txt']]))
          .rows[0]?.n,
      );
      expect(chunks).to.be.at.least(7);
      const expected = [
        ...Array.from({ length: Math.floor(chunks / 3) }, () => 3),
        ...(chunks % 3 ? [chunks % 3] : []),
      ];
      const { rows } = await db.query<{ tbl: string; n: number }>('select tbl, n from statement_rows order by at');
      expect(rows.filter((row) => row.tbl === 'chunk').map((row) => row.n)).to.deep.equal(expected);
      expect(rows.filter((row) => row.tbl === 'vector_embedding').map((row) => row.n)).to.deep.equal(expected);
    } finally {
      for (const table of ['chunk', 'vector_embedding']) await db.query(`drop trigger note_statement_rows on ${table}`);
      await db.query('drop function note_statement_rows()');
      await db.query('drop table statement_rows');
    }
  });

  it("INDEXING_OCR_LANGUAGES reaches the OCR extractor's options: a missing language fails the image", async () => {
    const form = new FormData();
    // The languages are checked before a pixel is decoded, so any bytes do.
    form.append('file', new Blob([Buffer.from('not really a picture')]), 'scan.png');
    const res = await fetch(`${t.server.url}/api/docs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${t.admin}` },
    });
    expect(res.status).to.equal(202);
    const [document] = ((await res.json()) as Json).documents as Json[];
    const deadline = Date.now() + 60_000;
    let current: Json = {};
    while (Date.now() < deadline) {
      current = (await t.call('GET', `/api/docs/${document!.id as string}`, t.admin)).body;
      if (current.status === 'failed' || current.status === 'indexed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(current.status).to.equal('failed');
    expect(current.error).to.equal('OCR language "zzz" is not installed (npm package @tesseract.js-data/zzz)');
  });
});
