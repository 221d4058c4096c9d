import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerTokens, type ExtractedDocument } from '@docqa/plugin-api';
import { describeExtractorConformance, startTestKernel } from '@docqa/plugin-testkit';
import csvExtractorPlugin, { csvExtractorProvider } from './index.js';

describeExtractorConformance('extractor-csv', {
  provider: csvExtractorProvider,
  async samples(dir) {
    const csv = join(dir, 'people.csv');
    await writeFile(csv, '\uFEFFName,City,Note\r\nZoë,東京,"ünïcødé, quoted"\r\nAda,London,\r\n');
    const tsv = join(dir, 'scores.tsv');
    await writeFile(tsv, 'Team\tScore\nred\t3\nblue\t5\n');
    return [
      {
        path: csv,
        filename: 'people.csv',
        mediaType: 'text/csv',
        expect: ['Name: Zoë; City: 東京; Note: ünïcødé, quoted', 'Name: Ada; City: London'],
      },
      {
        path: tsv,
        filename: 'scores.tsv',
        mediaType: 'text/tab-separated-values',
        expect: ['Team: red; Score: 3', 'Team: blue; Score: 5'],
      },
    ];
  },
  async corrupt(dir) {
    const path = join(dir, 'archive.csv');
    await writeFile(path, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]));
    return { path, filename: 'archive.csv', mediaType: 'text/csv' };
  },
});

describe('extractor-csv', function () {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'extractor-csv-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function extractCsv(
    content: string | Buffer,
    filename = 'data.csv',
    tables = true,
  ): Promise<ExtractedDocument> {
    const path = join(dir, filename);
    await writeFile(path, content);
    const options = { ocr: false, ocrLanguages: [], tables };
    return csvExtractorProvider.extract(
      { path, filename, mediaType: 'text/csv', options },
      new AbortController().signal,
    );
  }

  it('is gated to the PRO plan', () => {
    expect(csvExtractorProvider.requiredPlan).to.equal('PRO');
  });

  it('labels each data row with the header, skips empty cells and blank lines, and takes the title from the file name', async () => {
    const document = await extractCsv(
      'id,name,,email\n1,Ada,x,\n\n , ,,\n2,"Bob ""B"" Smith",,bob@example.com\n',
      'team.members.csv',
    );
    expect(document).to.deep.equal({
      title: 'team.members',
      blocks: [
        // Rows count the non-empty records, the header being 1: the blank lines are not counted.
        { kind: 'table_row', text: 'id: 1; name: Ada; Column 3: x', row: 2 },
        { kind: 'table_row', text: 'id: 2; name: Bob "B" Smith; email: bob@example.com', row: 3 },
      ],
      metadata: {},
    });
  });

  it('makes table rows even when tables are off, since a CSV is a table', async () => {
    const document = await extractCsv('a,b\n1,2\n', 'data.csv', false);
    expect(document.blocks).to.deep.equal([{ kind: 'table_row', text: 'a: 1; b: 2', row: 2 }]);
  });

  it('detects a semicolon delimiter and reads a single-column file without warnings', async () => {
    expect((await extractCsv('Name;Preis\nTee;3,50\n')).blocks).to.deep.equal([
      { kind: 'table_row', text: 'Name: Tee; Preis: 3,50', row: 2 },
    ]);
    expect(await extractCsv('word\nalpha\nbeta\n', 'words.csv')).to.deep.equal({
      title: 'words',
      blocks: [
        { kind: 'table_row', text: 'word: alpha', row: 2 },
        { kind: 'table_row', text: 'word: beta', row: 3 },
      ],
      metadata: {},
    });
  });

  it('keeps what parses from rows of the wrong length and counts them as parse warnings', async () => {
    const document = await extractCsv('a,b\n1,2\n3\n4,5,6\n');
    expect(document.blocks).to.deep.equal([
      { kind: 'table_row', text: 'a: 1; b: 2', row: 2 },
      { kind: 'table_row', text: 'a: 3', row: 3 },
      { kind: 'table_row', text: 'a: 4; b: 5; Column 3: 6', row: 4 },
    ]);
    expect(document.metadata).to.deep.equal({ parse_warnings: '2' });
  });

  it('keeps the rows before an unterminated quote and records a warning', async () => {
    const document = await extractCsv('a,b\n1,2\n3,"never closed\n4,5\n');
    expect(document.blocks[0]).to.deep.equal({ kind: 'table_row', text: 'a: 1; b: 2', row: 2 });
    expect(Number(document.metadata.parse_warnings)).to.be.at.least(1);
  });

  it('streams a large file in many chunks with every row intact', async () => {
    const rows = 20_000;
    const lines = ['n,word'];
    for (let i = 0; i < rows; i += 1) lines.push(`${i},wörd ${i}`);
    const document = await extractCsv(lines.join('\n'));
    expect(document.blocks).to.have.length(rows);
    expect(document.blocks.at(-1)).to.deep.equal({
      kind: 'table_row',
      text: `n: ${rows - 1}; word: wörd ${rows - 1}`,
      row: rows + 1,
    });
    expect(document.metadata).to.deep.equal({});
  });

  it('refuses a binary file as unsupported, naming it', async () => {
    const error = await extractCsv(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]), 'export.csv').then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'unsupported_media_type');
    expect((error as Error).message).to.include("'export.csv'");
  });

  it('loads in a kernel as an extractor and refuses options it does not have', async function () {
    this.timeout(120_000);
    const kernel = await startTestKernel({ plugins: [{ plugin: csvExtractorPlugin }] });
    try {
      expect(kernel.resolveAll(providerTokens.extractor)).to.include(csvExtractorProvider);
    } finally {
      await kernel.dispose();
    }
    const error = await startTestKernel({
      plugins: [{ plugin: csvExtractorPlugin, options: { delimiter: ';' } }],
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'plugin_invalid');
    expect((error as Error).message)
      .to.include("plugin instance 'extractor-csv'")
      .and.include('delimiter');
  });
});
