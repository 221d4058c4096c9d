import { expect } from 'chai';
import { startSearchServer } from '../testing/search-server.test-support.js';

const page = `<html><body><h1>Products</h1>
<table><tr><th>Product</th><th>Region</th></tr><tr><td>Zorblax-1</td><td>EU</td></tr></table>
</body></html>`;

/** The text of every chunk of an HTML page indexed by a server started with INDEXING_TABLES_ENABLED. */
async function indexedWithTables(tables: 'true' | 'false'): Promise<string> {
  const t = await startSearchServer({ plan: 'PRO', embedder: false, env: { INDEXING_TABLES_ENABLED: tables } });
  try {
    const { 'products.html': id } = await t.uploadTexts({ 'products.html': page });
    const { rows } = await t.server.kernel.db.query<{ text: string }>(
      'select text from chunk where document_id = $1 order by position',
      [id],
    );
    return rows.map((row) => row.text).join('\n');
  } finally {
    await t.stop();
  }
}

// The extractors' own tests pass `tables` by hand; this one holds the variable's way to them
// (configuration, documents module, extraction workers), which nothing else exercises.
describe('INDEXING_TABLES_ENABLED reaches the extractors (spec 8.2)', function () {
  this.timeout(120_000);

  it("labels a table's rows with their headers when on, and keeps them as plain paragraphs when off", async () => {
    expect(await indexedWithTables('true')).to.include('Product: Zorblax-1; Region: EU');
    const off = await indexedWithTables('false');
    expect(off).to.include('Zorblax-1 | EU');
    expect(off).to.not.include('Region: EU');
  });
});
