import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { PDFDocument, PDFHexString, PDFName, StandardFonts, rgb } from 'pdf-lib';
import type { PDFFont } from 'pdf-lib';
import { DocqaError, splitWorkerModule } from '@docqa/plugin-api';
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { describeExtractorConformance } from '@docqa/plugin-testkit';
import { createPdfExtractorProvider, pdfExtractorOptionsSchema, pdfMediaType } from './index.js';
import { pdfDateToIso } from './pdf-info.js';

interface Run {
  text: string;
  x?: number;
  y: number;
  size?: number;
  bold?: boolean;
}

/** Writes a PDF whose pages hold the given runs of text (Helvetica, so WinAnsi characters only). */
async function writePdf(path: string, pages: Run[][], configure?: (document: PDFDocument) => void): Promise<void> {
  const document = await PDFDocument.create();
  const fonts: Record<'regular' | 'bold', PDFFont> = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
  };
  for (const runs of pages) {
    const page = document.addPage([600, 800]);
    for (const run of runs) {
      page.drawText(run.text, {
        x: run.x ?? 50,
        y: run.y,
        size: run.size ?? 11,
        font: run.bold ? fonts.bold : fonts.regular,
      });
    }
  }
  configure?.(document);
  await writeFile(path, await document.save());
}

/** A two-page report: three heading sizes, paragraphs of wrapped lines, a price table, metadata. */
async function writeReport(path: string): Promise<void> {
  await writePdf(
    path,
    [
      [
        { text: 'Quarterly report', y: 740, size: 24, bold: true },
        { text: 'Sales grew in every region this quarter,', y: 710 },
        { text: 'led by Zoë and the ünïcødé team.', y: 696 },
        { text: 'Prices', y: 660, size: 18, bold: true },
        { text: 'Item', y: 630 },
        { text: 'Price', x: 250, y: 630 },
        { text: 'Green tea', y: 616 },
        { text: '4.50', x: 250, y: 616 },
        { text: 'Black coffee', y: 602 },
        { text: '3.20', x: 250, y: 602 },
        { text: 'Prices include tax.', y: 570 },
      ],
      [
        { text: 'Outlook', y: 740, size: 14, bold: true },
        { text: 'Next quarter looks calm.', y: 710 },
        { text: 'We expect no surprises.', y: 670 },
      ],
    ],
    (document) => {
      document.setTitle('Q3 report');
      document.setAuthor('Ada Lovelace');
      document.setSubject('Sales');
      document.setKeywords(['sales', 'tea']);
      document.setCreationDate(new Date(Date.UTC(2024, 2, 1, 12, 30, 0)));
    },
  );
}

/** The worker module as the extraction worker calls it: with the plugin's options as third argument. */
type WorkerModule = {
  extract(input: ExtractorInput, signal?: AbortSignal, options?: unknown): Promise<ExtractedDocument>;
};

describeExtractorConformance('extractor-pdf', {
  provider: createPdfExtractorProvider(),
  async samples(dir) {
    const path = join(dir, 'report.pdf');
    await writeReport(path);
    return [
      {
        path,
        filename: 'report.pdf',
        mediaType: pdfMediaType,
        expect: [
          'Quarterly report',
          'led by Zoë and the ünïcødé team.',
          'Item: Green tea; Price: 4.50',
          'Outlook',
          'no surprises',
        ],
        headings: ['Quarterly report', 'Prices', 'Outlook'],
      },
    ];
  },
  async corrupt(dir) {
    const path = join(dir, 'corrupt.pdf');
    await writeFile(path, '%PDF-1.7\nthis file stops here');
    return { path, filename: 'corrupt.pdf', mediaType: pdfMediaType };
  },
});

describe('extractor-pdf', function () {
  const provider = createPdfExtractorProvider();
  const signal = new AbortController().signal;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docqa-pdf-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  function input(path: string, filename: string, tables = true): ExtractorInput {
    return { path, filename, mediaType: pdfMediaType, options: { ocr: false, ocrLanguages: [], tables } };
  }

  async function failure(promise: Promise<ExtractedDocument>): Promise<DocqaError> {
    const error = await promise.then(
      () => null,
      (failed: unknown) => failed,
    );
    expect(DocqaError.is(error, 'unsupported_media_type'), String(error)).to.equal(true);
    return error as DocqaError;
  }

  it('reads pages into headings by size, paragraphs, table rows and page breaks, each with its page', async () => {
    const path = join(dir, 'report.pdf');
    await writeReport(path);
    const document = await provider.extract(input(path, 'report.pdf'), signal);
    expect(document.blocks).to.deep.equal([
      { kind: 'heading', text: 'Quarterly report', level: 1, page: 1 },
      { kind: 'paragraph', text: 'Sales grew in every region this quarter, led by Zoë and the ünïcødé team.', page: 1 },
      { kind: 'heading', text: 'Prices', level: 2, page: 1 },
      { kind: 'table_row', text: 'Item: Green tea; Price: 4.50', page: 1 },
      { kind: 'table_row', text: 'Item: Black coffee; Price: 3.20', page: 1 },
      { kind: 'paragraph', text: 'Prices include tax.', page: 1 },
      { kind: 'page_break', text: '', page: 2 },
      { kind: 'heading', text: 'Outlook', level: 3, page: 2 },
      { kind: 'paragraph', text: 'Next quarter looks calm.', page: 2 },
      { kind: 'paragraph', text: 'We expect no surprises.', page: 2 },
    ]);
  });

  it('takes the title and metadata from the info dictionary', async () => {
    const path = join(dir, 'report-metadata.pdf');
    await writeReport(path);
    const document = await provider.extract(input(path, 'report-metadata.pdf'), signal);
    expect(document.title).to.equal('Q3 report');
    expect(document.metadata).to.deep.equal({
      author: 'Ada Lovelace',
      subject: 'Sales',
      keywords: 'sales tea',
      created: '2024-03-01T12:30:00.000Z',
      pages: '2',
    });
  });

  it('keeps table lines as paragraphs when tables are off', async () => {
    const path = join(dir, 'report-no-tables.pdf');
    await writeReport(path);
    const document = await provider.extract(input(path, 'report-no-tables.pdf', false), signal);
    expect(document.blocks.filter((block) => block.kind === 'table_row')).to.deep.equal([]);
    expect(document.blocks).to.deep.include({
      kind: 'paragraph',
      text: 'Item Price Green tea 4.50 Black coffee 3.20',
      page: 1,
    });
  });

  it('does not take a single line with a wide gap for a table', async () => {
    const path = join(dir, 'gap.pdf');
    await writePdf(path, [
      [
        { text: 'Total', y: 700 },
        { text: '42', x: 300, y: 700 },
        { text: 'Thanks for reading.', y: 660 },
      ],
    ]);
    const document = await provider.extract(input(path, 'gap.pdf'), signal);
    expect(document.blocks).to.deep.equal([
      { kind: 'paragraph', text: 'Total 42', page: 1 },
      { kind: 'paragraph', text: 'Thanks for reading.', page: 1 },
    ]);
    expect(document.title).to.equal(undefined);
  });

  it('returns no blocks and needs_ocr for a PDF without a text layer', async () => {
    const document = await PDFDocument.create();
    document.addPage([600, 800]).drawRectangle({ x: 50, y: 50, width: 500, height: 700, color: rgb(0.8, 0.8, 0.8) });
    const path = join(dir, 'scan.pdf');
    await writeFile(path, await document.save());
    const extracted = await provider.extract(input(path, 'scan.pdf'), signal);
    expect(extracted.blocks).to.deep.equal([]);
    expect(extracted.metadata).to.include({ needs_ocr: 'true', pages: '1' });
  });

  it('refuses an encrypted PDF, asking for the password to be removed', async () => {
    const path = join(dir, 'locked.pdf');
    await writePdf(path, [[{ text: 'Secret', y: 700 }]], encryptWithUnknownPassword);
    const error = await failure(provider.extract(input(path, 'locked.pdf'), signal));
    expect(error.message).to.equal('locked.pdf is encrypted; remove the password and upload it again');
  });

  it('refuses a file that is not a PDF, naming it', async () => {
    const path = join(dir, 'notes.pdf');
    await writeFile(path, 'just some text');
    const error = await failure(provider.extract(input(path, 'notes.pdf'), signal));
    expect(error.message).to.match(/^notes\.pdf is not a readable PDF: /);
  });

  describe('page and time limits', () => {
    async function refusal(extraction: Promise<ExtractedDocument>): Promise<DocqaError> {
      const error = await extraction.then(
        () => null,
        (failed: unknown) => failed,
      );
      expect(DocqaError.is(error, 'file_too_large'), String(error)).to.equal(true);
      return error as DocqaError;
    }
    const pages = (count: number): Run[][] =>
      Array.from({ length: count }, (_, index) => [{ text: `Page ${index + 1} says hello.`, y: 700 }]);

    it('refuses a PDF of more than maxPages pages at once, in-process and in the worker module', async () => {
      const limited = createPdfExtractorProvider(pdfExtractorOptionsSchema.parse({ maxPages: 10 }));
      const path = join(dir, 'eleven.pdf');
      await writePdf(path, pages(11));
      const started = performance.now();
      const error = await refusal(limited.extract(input(path, 'eleven.pdf'), signal));
      expect(error.message).to.equal(
        'eleven.pdf has 11 pages, more than 10; it was not read. ' +
          'The limit is the maxPages option of extractor-pdf (docs/security.md).',
      );
      expect(performance.now() - started, 'milliseconds: refused before reading pages').to.be.below(2000);
      const { moduleUrl, options } = splitWorkerModule(limited.workerModule);
      const worker = (await import(moduleUrl)) as WorkerModule;
      await refusal(worker.extract(input(path, 'eleven.pdf'), undefined, options));
      const unlimited = await createPdfExtractorProvider().extract(input(path, 'eleven.pdf'), signal);
      expect(unlimited.metadata.pages, 'default limits').to.equal('11');
    });

    it('gives up a PDF that takes longer than maxExtractionSeconds, naming the page it stopped at', async function () {
      this.timeout(120_000);
      const limited = createPdfExtractorProvider(pdfExtractorOptionsSchema.parse({ maxExtractionSeconds: 1 }));
      const path = join(dir, 'long.pdf');
      // 2,000 pages take a few seconds to read (about 3 ms a page here): well past one second.
      await writePdf(path, pages(2000));
      const started = performance.now();
      const error = await refusal(limited.extract(input(path, 'long.pdf'), signal));
      expect(error.message).to.match(/^long\.pdf took longer than 1 s to read \(stopped before page \d+ of 2000\); /);
      expect(error.message).to.include('; it was given up.');
      expect(error.message).to.include('The limit is the maxExtractionSeconds option of extractor-pdf');
      expect(performance.now() - started, 'milliseconds').to.be.below(3000);
    });

    it('validates its limits and defaults them', () => {
      expect(pdfExtractorOptionsSchema.parse({})).to.deep.equal({ maxPages: 5000, maxExtractionSeconds: 300 });
      expect(pdfExtractorOptionsSchema.safeParse({ maxPages: 0 }).success).to.equal(false);
      expect(pdfExtractorOptionsSchema.safeParse({ maxExtractionSeconds: 1.5 }).success).to.equal(false);
    });
  });

  it('reads PDF dates with and without a time zone', () => {
    expect(pdfDateToIso("D:20240301123000+02'00'")).to.equal('2024-03-01T10:30:00.000Z');
    expect(pdfDateToIso('D:20240301123000Z')).to.equal('2024-03-01T12:30:00.000Z');
    expect(pdfDateToIso('D:2024')).to.equal('2024-01-01T00:00:00.000Z');
    expect(pdfDateToIso('yesterday')).to.equal(undefined);
  });
});

/**
 * Adds a standard security handler whose user password is not empty (its check value matches no
 * password), so pdf.js asks for one: what a password-protected PDF looks like to the extractor.
 */
function encryptWithUnknownPassword(document: PDFDocument): void {
  const checkValue = (byte: number) => PDFHexString.of(Buffer.alloc(32, byte).toString('hex'));
  const encrypt = document.context.obj({ Filter: 'Standard', V: 1, R: 2, Length: 40, P: -4 });
  encrypt.set(PDFName.of('O'), checkValue(1));
  encrypt.set(PDFName.of('U'), checkValue(2));
  document.context.trailerInfo.Encrypt = document.context.register(encrypt);
  const fileId = PDFHexString.of('00112233445566778899aabbccddeeff');
  document.context.trailerInfo.ID = document.context.obj([fileId, fileId]);
}
