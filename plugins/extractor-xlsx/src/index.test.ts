import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { DocqaError } from '@docqa/plugin-api';
import type { ExtractorInput } from '@docqa/plugin-api';
import { describeExtractorConformance } from '@docqa/plugin-testkit';
import { createXlsxExtractorProvider, xlsxMediaType } from './index.js';

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
      { kind: 'table_row', text: 'Name: Ada; Born: 1815-12-10; Score: 1.5; Double: 3; Active: TRUE' },
      { kind: 'table_row', text: 'Name: Zoë in 東京; Born: 2020-01-02T03:04:05.000Z; Score: 12345678901234; Active: FALSE' },
      { kind: 'table_row', text: 'Score: 0.25' },
      { kind: 'heading', text: 'Empty', level: 1 },
      { kind: 'heading', text: 'Notes', level: 1 },
      { kind: 'paragraph', text: 'Remember | the milk' },
    ]);
    expect(document.metadata).to.deep.equal({ sheets: '3' });
    expect(document.title).to.equal(undefined);
  });

  it('writes rows as paragraphs with the same text when tables are off', async () => {
    const path = join(dir, 'staff-paragraphs.xlsx');
    await writeStaffWorkbook(path);
    const document = await provider.extract(input(path, 'staff-paragraphs.xlsx', false), signal);
    expect(document.blocks.filter((block) => block.kind === 'table_row')).to.deep.equal([]);
    expect(document.blocks[1]).to.deep.equal({ kind: 'paragraph', text: 'Name: Ada; Born: 1815-12-10; Score: 1.5; Double: 3; Active: TRUE' });
  });

  it('names columns without a header by their number', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Prices');
    sheet.addRow(['Item', null, 'Price']);
    sheet.addRow(['Tea', 'loose', 4]);
    const path = join(dir, 'prices.xlsx');
    await workbook.xlsx.writeFile(path);
    const document = await provider.extract(input(path, 'prices.xlsx'), signal);
    expect(document.blocks[1]).to.deep.equal({ kind: 'table_row', text: 'Item: Tea; Column 2: loose; Price: 4' });
  });

  it('refuses a truncated workbook, naming the file', async () => {
    const path = join(dir, 'whole.xlsx');
    await writeStaffWorkbook(path);
    const { readFile } = await import('node:fs/promises');
    const truncatedPath = join(dir, 'truncated.xlsx');
    await writeFile(truncatedPath, (await readFile(path)).subarray(0, 1500));
    const error = await provider.extract(input(truncatedPath, 'truncated.xlsx'), signal).then(() => null, (failed: unknown) => failed);
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
    expect(document.blocks.at(-1)).to.deep.equal({ kind: 'table_row', text: 'Order: 20000; Customer: Customer 0' });
  });
});
