import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerTokens, type ExtractedDocument } from '@docqa/plugin-api';
import { describeExtractorConformance, startTestKernel } from '@docqa/plugin-testkit';
import htmlExtractorPlugin, { htmlExtractorProvider } from './index.js';

const page = `<!doctype html>
<html><head>
  <meta charset="utf-8"><title>Team   page</title>
  <meta name="description" content="Who works where">
  <meta name="Author" content="Zoë">
  <style>body { color: red }</style><script>var hidden = "script text";</script>
</head><body>
  <nav>Home | About</nav>
  <h1>Our team</h1>
  <p>We work in <b>Zoë</b>'s office &amp; in 東京, ünïcødé.</p>
  <h2>Members</h2>
  <table><tr><th>Name</th><th>City</th></tr><tr><td>Ada</td><td>London</td></tr></table>
  <footer>© footer text</footer>
</body></html>`;

describeExtractorConformance('extractor-html', {
  provider: htmlExtractorProvider,
  async samples(dir) {
    const path = join(dir, 'team.html');
    await writeFile(path, page);
    const fragment = join(dir, 'fragment.htm');
    await writeFile(fragment, 'Loose text <i>with</i> markup<h3>Later</h3>');
    return [
      {
        path,
        filename: 'team.html',
        mediaType: 'text/html',
        expect: ['Our team', "We work in Zoë's office & in 東京, ünïcødé.", 'Members', 'Name: Ada; City: London'],
        headings: ['Our team', 'Members'],
      },
      {
        path: fragment,
        filename: 'fragment.htm',
        mediaType: 'text/html',
        expect: ['Loose text with markup', 'Later'],
        headings: ['Later'],
      },
    ];
  },
  async corrupt(dir) {
    const path = join(dir, 'image.html');
    await writeFile(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    return { path, filename: 'image.html', mediaType: 'text/html' };
  },
});

describe('extractor-html', function () {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'extractor-html-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function extractHtml(html: string | Buffer, tables = true): Promise<ExtractedDocument> {
    const path = join(dir, 'page.html');
    await writeFile(path, html);
    const options = { ocr: false, ocrLanguages: [], tables };
    return htmlExtractorProvider.extract(
      { path, filename: 'page.html', mediaType: 'text/html', options },
      new AbortController().signal,
    );
  }

  it('is gated to the PRO plan and reads tables', () => {
    expect(htmlExtractorProvider.requiredPlan).to.equal('PRO');
    expect(htmlExtractorProvider.capabilities).to.deep.equal({ tables: true, ocr: false });
  });

  it('takes title and description, author and keywords metadata from the head, leaving out scripts, styles and page furniture', async () => {
    const document = await extractHtml(page);
    expect(document.title).to.equal('Team page');
    expect(document.metadata).to.deep.equal({ description: 'Who works where', author: 'Zoë' });
    const text = document.blocks.map((block) => block.text).join('\n');
    for (const dropped of ['script text', 'color: red', 'Home | About', 'footer text'])
      expect(text).to.not.include(dropped);
  });

  it('falls back to the first h1 for the title', async () => {
    expect((await extractHtml('<h2>Sub</h2><h1>Main &amp; only</h1>')).title).to.equal('Main & only');
  });

  it('keeps document order across headings, paragraphs, list items, blockquotes, definitions and loose text', async () => {
    const document = await extractHtml(`<body><main>Loose <em>intro</em>
      <h2>  Spaced
      heading </h2><ul><li>first item<ul><li>nested item</li></ul></li><li>second&nbsp;item</li></ul>
      <blockquote><p>quoted</p></blockquote><dl><dt>term</dt><dd>definition</dd></dl>
      <div>line one<br>line two</div><template>never</template><noscript>never</noscript><aside>never</aside><p hidden>never</p><p>  </p></main></body>`);
    expect(document.blocks).to.deep.equal([
      { kind: 'paragraph', text: 'Loose intro' },
      { kind: 'heading', text: 'Spaced heading', level: 2 },
      { kind: 'paragraph', text: 'first item' },
      { kind: 'paragraph', text: 'nested item' },
      { kind: 'paragraph', text: 'second item' },
      { kind: 'paragraph', text: 'quoted' },
      { kind: 'paragraph', text: 'term' },
      { kind: 'paragraph', text: 'definition' },
      { kind: 'paragraph', text: 'line one line two' },
    ]);
  });

  it('keeps the line breaks and indentation of <pre>', async () => {
    const document = await extractHtml('<pre>\nfunction f() {\n    return 1;   \n}\n</pre>');
    expect(document.blocks).to.deep.equal([{ kind: 'paragraph', text: 'function f() {\n    return 1;\n}' }]);
  });

  it('labels table rows with the <th> row or, without one, the first row, and skips empty cells and nested tables', async () => {
    const withTh =
      '<table><thead><tr><th>Name</th><th>Age</th><th>Note</th></tr></thead><tbody><tr><td>Ada</td><td>36</td><td></td></tr><tr><td>Bob</td><td></td><td>new</td></tr></tbody></table>';
    expect((await extractHtml(withTh)).blocks).to.deep.equal([
      { kind: 'table_row', text: 'Name: Ada; Age: 36' },
      { kind: 'table_row', text: 'Name: Bob; Note: new' },
    ]);
    const firstRowHeaders =
      '<table><tr><td>Key</td><td>Value</td></tr><tr><td>a</td><td><table><tr><td>inner</td></tr></table></td></tr></table>';
    expect((await extractHtml(firstRowHeaders)).blocks).to.deep.equal([
      { kind: 'table_row', text: 'Key: a; Value: inner' },
    ]);
  });

  it('makes each table row one paragraph when tables are off', async () => {
    const table = '<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ada</td><td>36</td></tr></table>';
    expect((await extractHtml(table, false)).blocks).to.deep.equal([
      { kind: 'paragraph', text: 'Name | Age' },
      { kind: 'paragraph', text: 'Ada | 36' },
    ]);
  });

  it('reads UTF-16 with a byte-order mark', async () => {
    const document = await extractHtml(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Zoë 東京</p>', 'utf16le')]),
    );
    expect(document.blocks).to.deep.equal([{ kind: 'paragraph', text: 'Zoë 東京' }]);
  });

  it('loads in a kernel as an extractor and refuses options it does not have', async function () {
    this.timeout(120_000);
    const kernel = await startTestKernel({ plugins: [{ plugin: htmlExtractorPlugin }] });
    try {
      expect(kernel.resolveAll(providerTokens.extractor)).to.include(htmlExtractorProvider);
    } finally {
      await kernel.dispose();
    }
    const error = await startTestKernel({
      plugins: [{ plugin: htmlExtractorPlugin, options: { keepScripts: true } }],
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'plugin_invalid');
    expect((error as Error).message)
      .to.include("plugin instance 'extractor-html'")
      .and.include('keepScripts');
  });
});
