import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';
import { chatStream } from '../testing/sse.test-support.js';

// Each sample hides one made-up word in a known place: the search for it finds that passage, whose
// location must say where it is, and whose offsets must index the text GET /api/docs/{id}/content gives.

async function samples(dir: string): Promise<Record<string, Buffer>> {
  const docx = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Annual Report', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('The year in brief, before the findings.'),
            new Paragraph({ text: 'Findings', heading: HeadingLevel.HEADING_2 }),
            new Paragraph('The survey counted every numbatword in the western reserve twice.'),
          ],
        },
      ],
    }),
  );
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  // A larger line opens each page: the extractor takes it for a heading, so each page is its own section.
  const first = pdf.addPage();
  first.drawText('Rivers', { x: 40, y: 740, size: 20, font });
  first.drawText('The first page talks about rivers and their banks.', { x: 40, y: 700, size: 11, font });
  const second = pdf.addPage();
  second.drawText('Hills', { x: 40, y: 740, size: 20, font });
  second.drawText('The second page names the wombatword of the hills.', { x: 40, y: 700, size: 11, font });
  const workbook = new ExcelJS.Workbook();
  const plants = workbook.addWorksheet('Plants');
  plants.addRow(['Plant', 'Fact']);
  plants.addRow(['Fern', 'Ferns like shade.']);
  plants.addRow([]);
  plants.addRow(['Bilby', 'The bilbyword grows on row four.']);
  workbook.addWorksheet('Animals').addRow(['Animal', 'Fact']);
  const xlsxPath = path.join(dir, 'plants.xlsx');
  await workbook.xlsx.writeFile(xlsxPath);
  return {
    'guide.md': Buffer.from(
      '# Guide\n\nWhat this guide is for.\n\n## Install\n\n' +
        'Run the installer, then the quokkaword check.\n\n## Use\n\nOpen it.\n',
    ),
    'paper.pdf': Buffer.from(await pdf.save()),
    'report.docx': Buffer.from(docx),
    'plants.xlsx': fs.readFileSync(xlsxPath),
    'facts.csv': Buffer.from('animal,fact\nkoala,sleeps a lot\ndingo,the dingoword howls at night\n'),
    'page.html': Buffer.from(
      '<html><body><h1>Site</h1><p>Welcome.</p><h2>Contact</h2><p>Write to the possumword desk.</p></body></html>',
    ),
  };
}

/** Where each sample's word must be found. */
const expected: Record<string, { word: string; location: Json }> = {
  'guide.md': {
    word: 'quokkaword',
    location: { heading_path: ['Guide', 'Install'], page_start: null, page_end: null, sheet: null, row_start: null },
  },
  'paper.pdf': {
    word: 'wombatword',
    location: { heading_path: ['Hills'], page_start: 2, page_end: 2, sheet: null, row_start: null, row_end: null },
  },
  'report.docx': {
    word: 'numbatword',
    location: { heading_path: ['Annual Report', 'Findings'], page_start: null, sheet: null, row_start: null },
  },
  'plants.xlsx': {
    word: 'bilbyword',
    location: { heading_path: ['Plants'], page_start: null, sheet: 'Plants', row_start: 2, row_end: 4 },
  },
  'facts.csv': { word: 'dingoword', location: { heading_path: [], sheet: null, row_start: 2, row_end: 3 } },
  'page.html': {
    word: 'possumword',
    location: { heading_path: ['Site', 'Contact'], page_start: null, sheet: null, row_start: null },
  },
};

describe('citations: source locations, document content and file', function () {
  this.timeout(180_000);
  let t: SearchTestServer;
  let dir: string;
  let files: Record<string, Buffer>;
  let ids: Record<string, string>;
  let bob: string;

  const get = (route: string, token: string | null = t.admin, headers: Record<string, string> = {}) =>
    fetch(t.server.url + route, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  const content = async (id: string, query = '', token: string | null = t.admin) => {
    const res = await get(`/api/docs/${id}/content${query}`, token);
    return { status: res.status, body: (await res.json()) as Json };
  };
  const wholeText = async (id: string) => (await content(id, '?limit=100000')).body.text as string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-citations-'));
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: false });
    files = await samples(dir);
    ids = await t.uploadTexts(files);
    const staff = (await t.call('POST', '/api/groups', t.admin, { name: 'Staff' })).body.id as string;
    const created = await t.call('POST', '/api/auth/users', t.admin, {
      username: 'bob',
      password: 'bob-password-1',
      role: 'viewer',
    });
    expect(created.status).to.equal(201);
    // Bob is in no group: the report is hidden from him, the rest is open to every user.
    const grant = await t.call('PUT', `/api/access/document/${ids['report.docx']}`, t.admin, { group_ids: [staff] });
    expect(grant.status).to.equal(200);
    bob = await t.login('bob', 'bob-password-1');
  });
  after(async () => {
    await t?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('search items carry the location of every format, and its offsets index the extracted text', async () => {
    for (const [name, { word, location }] of Object.entries(expected)) {
      const res = await t.call('POST', '/api/search', t.admin, { query: word, top_k: 1 });
      expect(res.status).to.equal(200);
      const [item] = res.body.items as Json[];
      expect(item?.document_id, name).to.equal(ids[name]);
      expect(item!.location, name).to.include.all.keys(
        'page_start',
        'page_end',
        'heading_path',
        'sheet',
        'row_start',
        'row_end',
        'char_start',
        'char_end',
      );
      for (const [key, value] of Object.entries(location))
        expect(item!.location[key], `${name} ${key}`).to.deep.equal(value);
      const text = await wholeText(item!.document_id as string);
      const { char_start: start, char_end: end } = item!.location as { char_start: number; char_end: number };
      expect(text.slice(start, end), name).to.equal(item!.text).and.include(word);
    }
  });

  it('chat sources carry the same locations, in the JSON answer and in the SSE done event', async () => {
    for (const name of ['plants.xlsx', 'paper.pdf', 'guide.md']) {
      const { word } = expected[name]!;
      const searched = await t.call('POST', '/api/search', t.admin, { query: word, top_k: 1 });
      const location = searched.body.items[0].location as Json;
      expect(location, name).to.deep.include(expected[name]!.location);
      const json = await t.call('POST', '/api/chat', t.admin, { query: `What about the ${word}?`, top_k: 1 });
      expect(json.status).to.equal(200);
      expect(json.body.sources[0].document_id).to.equal(ids[name]);
      expect(json.body.sources[0].location, name).to.deep.equal(location);
      const stream = await chatStream(t.server.url, t.admin, { query: `What about the ${word}?`, top_k: 1 });
      const done = stream.events.find((event) => event.type === 'done');
      expect(done?.data.sources[0].location, name).to.deep.equal(location);
    }
  });

  it('/content pages the text by offset and limit, with the whole section map and pages', async () => {
    const id = ids['guide.md']!;
    const whole = await content(id, '?limit=100000');
    expect(whole.status).to.equal(200);
    expect(whole.body).to.include({ document_id: id, title: 'Guide', media_type: 'text/markdown', offset: 0 });
    expect(whole.body.total_chars).to.equal(whole.body.text.length);
    expect(whole.body.text).to.match(/^Guide\n\nWhat this guide is for\./);
    expect(whole.body.pages).to.deep.equal([]);
    const sections = whole.body.sections as Json[];
    expect(sections.map((section) => section.heading_path)).to.deep.equal([
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Use'],
    ]);
    for (const section of sections) expect(section).to.include({ page_start: null, page_end: null, sheet: null });
    const install = whole.body.text.slice(sections[1]!.char_start, sections[1]!.char_end) as string;
    expect(install).to.equal('Install\n\nRun the installer, then the quokkaword check.');
    // Pages of 7 characters put back together are the whole text; each answers the whole map.
    let joined = '';
    for (let offset = 0; offset < whole.body.total_chars; offset += 7) {
      const page = await content(id, `?offset=${offset}&limit=7`);
      expect(page.body).to.include({ offset, limit: 7, total_chars: whole.body.total_chars });
      expect(page.body.sections).to.deep.equal(sections);
      joined += page.body.text;
    }
    expect(joined).to.equal(whole.body.text);
    const end = await content(id, `?offset=${whole.body.total_chars}`);
    expect(end.status).to.equal(200);
    expect(end.body.text).to.equal('');

    const pdf = await content(ids['paper.pdf']!, '?limit=100000');
    const pages = pdf.body.pages as Array<{ page: number; char_start: number; char_end: number }>;
    expect(pages.map((page) => page.page)).to.deep.equal([1, 2]);
    expect(pdf.body.text.slice(pages[1]!.char_start, pages[1]!.char_end)).to.include('wombatword');
    expect(pdf.body.text.slice(pages[0]!.char_start, pages[0]!.char_end))
      .to.include('rivers')
      .and.not.include('wombat');

    const xlsx = await content(ids['plants.xlsx']!);
    expect((xlsx.body.sections as Json[]).map((section) => section.sheet)).to.deep.equal(['Plants', 'Animals']);
    expect(xlsx.body.limit).to.equal(20000);
  });

  it('/content refuses bad paging (422), hidden documents (404), and texts kept without a layout (409)', async () => {
    const id = ids['guide.md']!;
    const { total_chars: total } = (await content(id)).body as { total_chars: number };
    for (const query of [
      '?limit=0',
      '?limit=100001',
      '?offset=-1',
      `?offset=${total + 1}`,
      '?offset=abc',
      '?limit=1.5',
    ])
      expect((await content(id, query)).status, query).to.equal(422);
    expect((await content(ids['report.docx']!, '', bob)).status).to.equal(404);
    // Paging is checked before the document: a hidden one and one that does not exist answer alike.
    expect((await content('7a1d2f9e-0000-4000-8000-000000000000', '?limit=0', bob)).status).to.equal(422);
    expect((await content(ids['report.docx']!, '?limit=0', bob)).status).to.equal(422);
    expect((await content(id, '', bob)).status).to.equal(200);
    expect((await content('7a1d2f9e-0000-4000-8000-000000000000')).status).to.equal(404);
    expect((await content(id, '', null)).status).to.equal(401);
    await t.server.kernel.db.query('update document_text set layout = null where document_id = $1', [id]);
    const stale = await content(id);
    expect(stale.status).to.equal(409);
    expect(stale.body).to.include({ code: 'conflict', reason: 'reindex_required' });
  });

  it('/file answers the uploaded bytes with safe headers, revalidates by ETag, hides unreadable ones', async () => {
    for (const name of ['paper.pdf', 'plants.xlsx', 'page.html']) {
      const res = await get(`/api/docs/${ids[name]}/file`);
      expect(res.status, name).to.equal(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.equals(files[name]!), name).to.equal(true);
      expect(res.headers.get('content-length')).to.equal(String(bytes.length));
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename*=UTF-8''${name}`);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('content-security-policy')).to.equal('sandbox');
    }
    const pdf = await get(`/api/docs/${ids['paper.pdf']}/file?disposition=inline`);
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    expect(pdf.headers.get('content-disposition')).to.equal("inline; filename*=UTF-8''paper.pdf");
    const etag = pdf.headers.get('etag') as string;
    expect((await get(`/api/docs/${ids['paper.pdf']}/file`, t.admin, { 'if-none-match': etag })).status).to.equal(304);
    // Only a PDF is shown inline: stored HTML always downloads.
    const html = await get(`/api/docs/${ids['page.html']}/file?disposition=inline`);
    expect(html.headers.get('content-disposition')).to.match(/^attachment;/);
    expect((await get(`/api/docs/${ids['page.html']}/file?disposition=open`)).status).to.equal(422);
    expect((await get(`/api/docs/${ids['report.docx']}/file`, bob)).status).to.equal(404);
    expect((await get(`/api/docs/${ids['report.docx']}/file`)).status).to.equal(200);
    expect((await get(`/api/docs/${ids['guide.md']}/file`, bob)).status).to.equal(200);
    expect((await get(`/api/docs/${ids['guide.md']}/file`, null)).status).to.equal(401);
  });
});
