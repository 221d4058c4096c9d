import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import {
  PDFDocument,
  PDFName,
  StandardFonts,
  concatTransformationMatrix,
  degrees,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  setFillingGrayscaleColor,
} from 'pdf-lib';
import type { PDFPage, PDFRef } from 'pdf-lib';
import { DocqaError } from '@docqa/plugin-api';
import type { ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { createPdfExtractorProvider, pdfMediaType, stopOcrWorkers } from './index.js';

/** A page the size of A4 in points: scans are drawn over the whole of it, as scanners write them. */
const a4: [number, number] = [595, 842];

/**
 * A scanned page: lines of dark text near the top of a white page of A4 proportions (about 130 dpi),
 * drawn by librsvg with the system's fonts (DejaVu here, fonts-dejavu-core). `landscape` swaps the sides.
 */
function scanSvg(lines: string[], { landscape = false } = {}): Buffer {
  const [width, height] = landscape ? [1556, 1100] : [1100, 1556];
  const text = lines.map((line, index) => `<text x="90" y="${160 + 64 * index}">${line}</text>`).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#ffffff"/>` +
      `<g font-family="DejaVu Sans, sans-serif" font-size="40" fill="#111">${text}</g></svg>`,
  );
}

/** A 1-bit image XObject (no pdf-lib helper writes those): a bilevel fax-like scan, or a stencil mask. */
async function bilevelImage(document: PDFDocument, svg: Buffer, asMask: boolean): Promise<PDFRef> {
  const { data, info } = await sharp(svg).greyscale().threshold(128).raw().toBuffer({ resolveWithObject: true });
  const stride = Math.ceil(info.width / 8);
  const bits = Buffer.alloc(stride * info.height);
  for (let y = 0; y < info.height; y += 1) {
    for (let x = 0; x < info.width; x += 1) {
      // DeviceGray 1 bit: 1 is white. A mask with the default Decode paints where the bit is 0.
      if (data[y * info.width + x]! > 127) bits[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const dictionary = asMask
    ? {
        Type: 'XObject',
        Subtype: 'Image',
        Width: info.width,
        Height: info.height,
        ImageMask: true,
        Filter: 'FlateDecode',
      }
    : {
        Type: 'XObject',
        Subtype: 'Image',
        Width: info.width,
        Height: info.height,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 1,
        Filter: 'FlateDecode',
      };
  return document.context.register(document.context.stream(deflateSync(bits), dictionary));
}

/** Draws an image XObject over the whole page, in the fill colour black (which a stencil mask paints in). */
function drawOverPage(page: PDFPage, name: string, ref: PDFRef): void {
  page.node.setXObject(PDFName.of(name), ref);
  page.pushOperators(
    setFillingGrayscaleColor(0),
    pushGraphicsState(),
    concatTransformationMatrix(a4[0], 0, 0, a4[1], 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
}

const documentText = (document: ExtractedDocument) =>
  document.blocks
    .map((block) => block.text)
    .join('\n')
    .toLowerCase();

/** OCR is allowed its noise: each phrase must appear, case-insensitively, somewhere in the text. */
function expectPhrases(document: ExtractedDocument, phrases: string[]): void {
  const text = documentText(document);
  for (const phrase of phrases) expect(text, `text ${JSON.stringify(text)}`).to.include(phrase.toLowerCase());
}

describe('extractor-pdf: OCR of scanned pages', function () {
  // A page of a few lines takes tesseract well under a second; starting its worker about half a second.
  this.timeout(60_000);
  const provider = createPdfExtractorProvider();
  let dir = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docqa-pdf-ocr-'));
    const rendered = await sharp(scanSvg(['x']))
      .greyscale()
      .stats();
    expect(rendered.channels[0]!.min, 'SVG text rendered nothing: install a font (fonts-dejavu-core)').to.be.below(100);
  });
  after(async () => {
    await stopOcrWorkers();
    await rm(dir, { recursive: true, force: true });
  });

  async function save(document: PDFDocument, filename: string): Promise<string> {
    const path = join(dir, filename);
    await writeFile(path, await document.save());
    return path;
  }
  const input = (path: string, ocr: boolean, ocrLanguages = ['eng']): ExtractorInput => ({
    path,
    filename: path.split('/').pop()!,
    mediaType: pdfMediaType,
    options: { ocr, ocrLanguages: ocr ? ocrLanguages : [], tables: true },
  });
  const extract = (path: string, ocr: boolean, ocrLanguages?: string[]) =>
    provider.extract(input(path, ocr, ocrLanguages), new AbortController().signal);

  /** A scan of three pages: a JPEG, a greyscale PNG on a page turned by /Rotate, and a 1-bit image. */
  async function writeScan(): Promise<string> {
    const document = await PDFDocument.create();
    const jpeg = await document.embedJpg(
      await sharp(scanSvg(['Invoice number 4711', 'Mitochondria produce energy']))
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
    document.addPage(a4).drawImage(jpeg, { x: 0, y: 0, width: a4[0], height: a4[1] });

    // A landscape scan as scanners store it: a portrait page shown a quarter turn clockwise
    // (/Rotate 90), with the image drawn a quarter turn counter-clockwise, so it is upright on screen.
    const png = await document.embedPng(
      await sharp(scanSvg(['Chloroplasts capture sunlight'], { landscape: true }))
        .greyscale()
        .png()
        .toBuffer(),
    );
    const turned = document.addPage(a4);
    turned.setRotation(degrees(90));
    turned.drawImage(png, { x: a4[0], y: 0, width: a4[1], height: a4[0], rotate: degrees(90) });

    drawOverPage(
      document.addPage(a4),
      'Fax',
      await bilevelImage(document, scanSvg(['Ribosomes build proteins']), false),
    );
    return save(document, 'scan.pdf');
  }

  it('reads every scanned page with OCR, however the image is stored and turned', async () => {
    const document = await extract(await writeScan(), true);
    expectPhrases(document, [
      'invoice number 4711',
      'mitochondria produce energy',
      'chloroplasts capture sunlight',
      'ribosomes build proteins',
    ]);
    expect(document.blocks.map((block) => [block.kind, block.page])).to.deep.equal([
      ['paragraph', 1],
      ['page_break', 2],
      ['paragraph', 2],
      ['page_break', 3],
      ['paragraph', 3],
    ]);
    expect(document.metadata).to.include({ pages: '3', ocr: 'true', ocr_pages: '3' });
    expect(document.metadata).to.not.have.property('needs_ocr');
    expect(Number(document.metadata.ocr_confidence)).to.be.within(60, 100);
  });

  it('keeps the text layer of text pages, reads only the scanned ones, and reads 1-bit masks', async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    // A text page with a photo on it: text pages are never OCRed, whatever images they hold.
    const textPage = document.addPage(a4);
    textPage.drawText('Native text about enzymes and their substrates in living cells.', {
      x: 40,
      y: 800,
      size: 12,
      font,
    });
    const photo = await document.embedPng(
      await sharp(scanSvg(['Hidden caption'], { landscape: true }))
        .png()
        .toBuffer(),
    );
    textPage.drawImage(photo, { x: 40, y: 300, width: 500, height: 350 });
    // A scanned page drawn as a stencil mask, with a few words of real text (a stamp): read by OCR too.
    const scanned = document.addPage(a4);
    drawOverPage(scanned, 'Scan', await bilevelImage(document, scanSvg(['Golgi apparatus packages proteins']), true));
    scanned.drawText('Page 2', { x: 40, y: 40, size: 10, font });
    const path = await save(document, 'mixed.pdf');

    const withOcr = await extract(path, true);
    expect(withOcr.blocks[0]).to.deep.equal({
      kind: 'paragraph',
      text: 'Native text about enzymes and their substrates in living cells.',
      page: 1,
    });
    expectPhrases(withOcr, ['golgi apparatus packages proteins', 'page 2']);
    expect(documentText(withOcr)).to.not.include('hidden caption');
    expect(withOcr.blocks.filter((block) => block.page === 2).map((block) => block.kind)).to.deep.equal([
      'page_break',
      'paragraph',
      'paragraph',
    ]);
    expect(withOcr.metadata).to.include({ ocr: 'true', ocr_pages: '1' });

    // OCR off: the text layer only, exactly as before OCR existed.
    const withoutOcr = await extract(path, false);
    expect(documentText(withoutOcr)).to.not.include('golgi');
    expect(withoutOcr.metadata).to.not.have.any.keys('ocr', 'ocr_pages', 'needs_ocr');
  });

  it('with OCR off, a scan still comes back empty with needs_ocr', async () => {
    const document = await extract(await writeScan(), false);
    expect(document.blocks).to.deep.equal([]);
    expect(document.metadata).to.include({ needs_ocr: 'true', pages: '3' });
    expect(document.metadata).to.not.have.property('ocr');
  });

  it('the worker module reads scans too, as the pipeline runs it', async () => {
    const { extract: workerExtract } = (await import(provider.workerModule)) as {
      extract(input: ExtractorInput): Promise<ExtractedDocument>;
    };
    expectPhrases(await workerExtract(input(await writeScan(), true)), [
      'invoice number 4711',
      'ribosomes build proteins',
    ]);
  });

  it('names the npm package of an OCR language that is not installed, before reading the file', async () => {
    const error = await extract(join(dir, 'does-not-exist.pdf'), true, ['eng', 'xyz']).then(
      () => null,
      (failed: unknown) => failed,
    );
    expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
    expect((error as Error).message).to.equal(
      'OCR language "xyz" is not installed (npm package @tesseract.js-data/xyz)',
    );
  });

  it('a PDF without any image or text yields no blocks and no OCR', async () => {
    const document = await PDFDocument.create();
    document.addPage(a4);
    const extracted = await extract(await save(document, 'blank.pdf'), true);
    expect(extracted.blocks).to.deep.equal([]);
    expect(extracted.metadata).to.include({ pages: '1' }).and.not.have.any.keys('ocr', 'ocr_pages', 'needs_ocr');
  });
});
