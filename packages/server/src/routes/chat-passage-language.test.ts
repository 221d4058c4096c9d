import { expect } from 'chai';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

// Issue #31 item 4: the extractive answer reads each passage's language from its chunk row, where
// indexing stored the language lexical search analysed it in, instead of detecting it again.
describe('chat: the language stored with each chunk reaches the extractive answer', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let ids: Record<string, string>;

  before(async () => {
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: false });
    ids = await t.uploadTexts({
      'archiv.txt': 'Archiv.\n\nDie Rechnungen liegen zehn Jahre im Tresor. Der Tresor steht in Berlin.',
      'invoices.txt': 'Invoice retention policy.\n\nInvoices are archived for ten years in the finance vault.',
    });
  });
  after(() => t?.stop());

  const ask = async () => {
    const res = await t.call('POST', '/api/chat', t.admin, { query: 'Wo liegt eine Rechnung?' });
    expect(res.status).to.equal(200);
    expect((res.body.sources as Json[])[0]).to.include({ document_id: ids['archiv.txt'] });
    return res.body;
  };

  it('analyses the passage in its stored language, which no API answer shows', async () => {
    const first = await ask();
    expect(first.answer).to.equal('Die Rechnungen liegen zehn Jahre im Tresor. [1]');
    for (const source of first.sources as Json[]) expect(source).to.not.have.property('language');
    const stored = await t.call('GET', `/api/conversations/${first.conversation_id}`, t.admin);
    for (const source of stored.body.turns[0].sources as Json[]) expect(source).to.not.have.property('language');
    const found = await t.call('POST', '/api/search', t.admin, { query: 'Rechnung' });
    expect(found.body.items).to.have.length.greaterThan(0);
    for (const item of found.body.items as Json[]) expect(item).to.not.have.property('language');

    // Told English in the chunk row (as a deployment whose INDEX_LANGUAGES left German out would
    // store it), the passage is analysed as English: its German stems no longer match the question.
    const { rowCount } = await t.server.kernel.db.query("update chunk set language = 'en' where document_id = $1", [
      ids['archiv.txt'],
    ]);
    expect(rowCount).to.be.greaterThan(0);
    const second = await ask();
    expect(second.answer).to.match(
      /^No indexed document answers this question\. The closest sources: archiv\.txt \[1\]/,
    );
  });
});
