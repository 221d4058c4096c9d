import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { DocqaError } from '@docqa/plugin-api';
import type { ExtractorInput } from '@docqa/plugin-api';
import { describeExtractorConformance } from '@docqa/plugin-testkit';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { createXlsxExtractorProvider, xlsxExtractorOptionsSchema, xlsxMediaType } from './index.js';
import { inflatedXlsx } from './zip-bomb.test-support.js';

/** Two sheets: people with every kind of cell value, and a sheet of one header row. */
async function writeStaffWorkbook(path: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const people = workbook.addWorksheet('People');
  people.addRow(['Name', 'Born', 'Score', 'Double', 'Active']);
  people.addRow(['Ada', new Date(Date.UTC(1815, 11, 10)), 1.5, { formula: 'C2*2', result: 3 }, true]);
  people.addRow([]);
  people.addRow([
    { richText: [{ text: 'Zoë ' }, { text: 'in 東京', font: { bold: true } }] },
    new Date(Date.UTC(2020, 0, 2, 3, 4, 5)),
    12345678901234,
    null,
    false,
  ]);
  people.addRow(['', '', '', '', '']);
  people.addRow([null, null, 0.25]);
  workbook.addWorksheet('Empty');
  const notes = workbook.addWorksheet('Notes');
  notes.addRow(['Remember', 'the milk']);
  await workbook.xlsx.writeFile(path);
}

/** The staff workbook with `rows` copies of `row` (a <row> element) added to its first sheet, built in memory. */
async function inflatedWorkbook(dir: string, rows: number, row: (index: number) => string): Promise<Uint8Array> {
  const path = join(dir, `base-${rows}.xlsx`);
  await writeStaffWorkbook(path);
  const { readFile } = await import('node:fs/promises');
  const parts = unzipSync(await readFile(path));
  const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!);
  const extra = Array.from({ length: rows }, (_, index) => row(index + 100)).join('');
  parts['xl/worksheets/sheet1.xml'] = strToU8(sheet.replace('</sheetData>', `${extra}</sheetData>`));
  return zipSync(parts, { level: 9 });
}

describeExtractorConformance('extractor-xlsx', {
  provider: createXlsxExtractorProvider(),
  async samples(dir) {
    const path = join(dir, 'staff.xlsx');
    await writeStaffWorkbook(path);
    return [
      {
        path,
        filename: 'staff.xlsx',
        mediaType: xlsxMediaType,
        expect: ['People', 'Name: Ada; Born: 1815-12-10', 'Name: Zoë in 東京', 'Notes', 'Remember | the milk'],
        headings: ['People', 'Empty', 'Notes'],
      },
    ];
  },
  async corrupt(dir) {
    const path = join(dir, 'corrupt.xlsx');
    await writeFile(path, 'name,born\nAda,1815\n');
    return { path, filename: 'corrupt.xlsx', mediaType: xlsxMediaType };
  },
});

describe('extractor-xlsx', function () {
  const provider = createXlsxExtractorProvider();
  const signal = new AbortController().signal;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docqa-xlsx-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  function input(path: string, filename: string, tables = true): ExtractorInput {
    return { path, filename, mediaType: xlsxMediaType, options: { ocr: false, ocrLanguages: [], tables } };
  }

  it('belongs to the PRO plan and reads .xlsx files', () => {
    expect(provider.requiredPlan).to.equal('PRO');
    expect(provider.mediaTypes).to.deep.equal([xlsxMediaType]);
    expect(provider.extensions).to.deep.equal(['.xlsx']);
  });

  it('writes each sheet as a heading and each data row as "Header: value; …", skipping empty rows', async () => {
    const path = join(dir, 'staff.xlsx');
    await writeStaffWorkbook(path);
    const document = await provider.extract(input(path, 'staff.xlsx'), signal);
    expect(document.blocks).to.deep.equal([
      { kind: 'heading', text: 'People', level: 1 },
      // Each row says its sheet row, the empty rows 3 and 5 counted: what Excel shows beside it.
      { kind: 'table_row', text: 'Name: Ada; Born: 1815-12-10; Score: 1.5; Double: 3; Active: TRUE', row: 2 },
      {
        kind: 'table_row',
        text: 'Name: Zoë in 東京; Born: 2020-01-02T03:04:05.000Z; Score: 12345678901234; Active: FALSE',
        row: 4,
      },
      { kind: 'table_row', text: 'Score: 0.25', row: 6 },
      { kind: 'heading', text: 'Empty', level: 1 },
      { kind: 'heading', text: 'Notes', level: 1 },
      { kind: 'paragraph', text: 'Remember | the milk', row: 1 },
    ]);
    expect(document.metadata).to.deep.equal({ sheets: '3' });
    expect(document.title).to.equal(undefined);
  });

  it('writes rows as paragraphs with the same text when tables are off', async () => {
    const path = join(dir, 'staff-paragraphs.xlsx');
    await writeStaffWorkbook(path);
    const document = await provider.extract(input(path, 'staff-paragraphs.xlsx', false), signal);
    expect(document.blocks.filter((block) => block.kind === 'table_row')).to.deep.equal([]);
    expect(document.blocks[1]).to.deep.equal({
      kind: 'paragraph',
      text: 'Name: Ada; Born: 1815-12-10; Score: 1.5; Double: 3; Active: TRUE',
      row: 2,
    });
  });

  it('names columns without a header by their number', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Prices');
    sheet.addRow(['Item', null, 'Price']);
    sheet.addRow(['Tea', 'loose', 4]);
    const path = join(dir, 'prices.xlsx');
    await workbook.xlsx.writeFile(path);
    const document = await provider.extract(input(path, 'prices.xlsx'), signal);
    expect(document.blocks[1]).to.deep.equal({
      kind: 'table_row',
      text: 'Item: Tea; Column 2: loose; Price: 4',
      row: 2,
    });
  });

  it('refuses a truncated workbook, naming the file', async () => {
    const path = join(dir, 'whole.xlsx');
    await writeStaffWorkbook(path);
    const { readFile } = await import('node:fs/promises');
    const truncatedPath = join(dir, 'truncated.xlsx');
    await writeFile(truncatedPath, (await readFile(path)).subarray(0, 1500));
    const error = await provider.extract(input(truncatedPath, 'truncated.xlsx'), signal).then(
      () => null,
      (failed: unknown) => failed,
    );
    expect(DocqaError.is(error, 'unsupported_media_type'), String(error)).to.equal(true);
    expect((error as Error).message).to.match(/^truncated\.xlsx is not a readable Excel workbook: /);
  });

  it('streams a workbook of 20,000 rows', async function () {
    this.timeout(120_000);
    const path = join(dir, 'big.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
    const sheet = writer.addWorksheet('Orders');
    sheet.addRow(['Order', 'Customer']).commit();
    for (let order = 1; order <= 20_000; order += 1) sheet.addRow([order, `Customer ${order % 100}`]).commit();
    sheet.commit();
    await writer.commit();
    const document = await provider.extract(input(path, 'big.xlsx'), signal);
    expect(document.blocks).to.have.length(20_001);
    expect(document.blocks.at(-1)).to.deep.equal({
      kind: 'table_row',
      text: 'Order: 20000; Customer: Customer 0',
      row: 20_001,
    });
  });

  describe('zip bomb limits', () => {
    async function refusal(extraction: Promise<unknown>): Promise<DocqaError> {
      const error = await extraction.then(
        () => null,
        (failed: unknown) => failed,
      );
      expect(DocqaError.is(error, 'file_too_large'), String(error)).to.equal(true);
      return error as DocqaError;
    }

    it('refuses a sheet compressed more than maxCompressionRatio to 1, before exceljs reads it', async () => {
      const same = '<row><c t="inlineStr"><is><t>All work and no play makes Jack a dull boy.</t></is></c></row>';
      const path = join(dir, 'ratio.xlsx');
      await writeFile(path, await inflatedWorkbook(dir, 100_000, () => same));
      const error = await refusal(provider.extract(input(path, 'ratio.xlsx'), signal));
      expect(error.message).to.match(/^ratio\.xlsx has an entry \(xl\/worksheets\/sheet1\.xml\) compressed \d+ to 1, /);
      expect(error.message).to.include('more than 100 to 1;');
      expect(error.message).to.include('The limit is the maxCompressionRatio option of extractor-xlsx');
    });

    it('refuses the end-to-end bomb for its compression; with few rows it reads as a workbook', async () => {
      const base = join(dir, 'bomb-base.xlsx');
      await writeStaffWorkbook(base);
      const { readFile } = await import('node:fs/promises');
      const small = join(dir, 'small-bomb.xlsx');
      await writeFile(small, inflatedXlsx(await readFile(base), 2, 'hello'));
      const blocks = (await provider.extract(input(small, 'small-bomb.xlsx'), signal)).blocks.map((b) => b.text);
      expect(blocks.filter((text) => text.includes('hello'))).to.have.length(2);
      const bomb = join(dir, 'bomb.xlsx');
      await writeFile(bomb, inflatedXlsx(await readFile(base), 10_000));
      const error = await refusal(provider.extract(input(bomb, 'bomb.xlsx'), signal));
      expect(error.message).to.match(/^bomb\.xlsx has an entry \(xl\/worksheets\/sheet1\.xml\) compressed \d+ to 1, /);
    });

    it('refuses a workbook inflating past maxUncompressedBytes', async () => {
      const options = xlsxExtractorOptionsSchema.parse({ maxUncompressedBytes: 1024 * 1024 });
      const limited = createXlsxExtractorProvider(options);
      const row = (index: number) => `<row r="${index}"><c r="A${index}"><v>${index * 7919}</v></c></row>`;
      const path = join(dir, 'large.xlsx');
      await writeFile(path, await inflatedWorkbook(dir, 40_000, row));
      const error = await refusal(limited.extract(input(path, 'large.xlsx'), signal));
      expect(error.message).to.equal(
        `large.xlsx inflates to more than ${1024 * 1024} bytes; it looks like a zip bomb and was not read. ` +
          'The limit is the maxUncompressedBytes option of extractor-xlsx (docs/security.md).',
      );
    });

    it('stops reading rows at maxTextCharacters', async function () {
      this.timeout(120_000);
      const limited = createXlsxExtractorProvider(xlsxExtractorOptionsSchema.parse({ maxTextCharacters: 10_000 }));
      const path = join(dir, 'many-rows.xlsx');
      const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
      const sheet = writer.addWorksheet('Orders');
      for (let order = 1; order <= 5_000; order += 1) sheet.addRow([order, `Customer ${order}`]).commit();
      sheet.commit();
      await writer.commit();
      const error = await refusal(limited.extract(input(path, 'many-rows.xlsx'), signal));
      expect(error.message).to.equal(
        'many-rows.xlsx has more than 10000 characters of text; it was not indexed. ' +
          'The limit is the maxTextCharacters option of extractor-xlsx (docs/security.md).',
      );
    });

    it('validates its limits and defaults them', () => {
      expect(xlsxExtractorOptionsSchema.safeParse({ maxUncompressedBytes: 10 }).success).to.equal(false);
      expect(xlsxExtractorOptionsSchema.parse({})).to.deep.equal({
        maxEntries: 10_000,
        maxUncompressedBytes: 512 * 1024 * 1024,
        maxCompressionRatio: 100,
        maxTextCharacters: 20_000_000,
      });
    });
  });
});
