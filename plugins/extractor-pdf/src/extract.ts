import { readFile } from 'node:fs/promises';
import { getDocumentProxy } from 'unpdf';
import { DocqaError } from '@docqa/plugin-api';
import type { ExtractedBlock, ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { headingSizeKey, isHeadingLine, medianFontSize, pageBlocks } from './page-blocks.js';
import { infoToMetadata } from './pdf-info.js';
import { joinIntoLines } from './text-lines.js';
import type { PositionedText, TextLine } from './text-lines.js';
import { ocrLanguages, readPageImages, type OcrJob, type PageText, type PdfPage } from './ocr/ocr-page.js';
import { pdfExtractorOptionsSchema, type PdfExtractorOptions } from './options.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** Heading sizes beyond the third largest all rank as level 3: deeper levels guessed from sizes mislead. */
const maxHeadingLevel = 3;

/**
 * A page whose text layer has fewer letters and digits than this is read by OCR as well (when OCR is
 * on): a scan often carries a few words of real text, a page number, a stamp, "Scanned by …".
 */
export const minNativeCharacters = 32;

interface PageContent {
  lines: TextLine[];
  /** What OCR read from the page's images; absent when the page was not (or could not be) OCRed. */
  ocr?: PageText;
}

/**
 * Extracts a PDF's text layer with unpdf (pdf.js built for servers, bundled: no worker, no network).
 * Runs in an extraction worker thread: it imports nothing but the plugin API, its parser and the OCR
 * libraries (tesseract.js, sharp). Pages are separated by page_break blocks and every block carries its
 * page number. With OCR off, a PDF without a text layer (a scan) yields no blocks and
 * metadata.needs_ocr = 'true'; with OCR on, the images of each page with (almost) no text are read.
 * `options` are the plugin's (its limits); absent, the defaults apply.
 */
export async function extract(
  input: ExtractorInput,
  signal?: AbortSignal,
  options?: unknown,
): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  const limits = pdfExtractorOptionsSchema.parse(options ?? {});
  const deadline = performance.now() + limits.maxExtractionSeconds * 1000;
  // tesseract.js starts its worker at the first scanned page, so text-only PDFs never pay for it.
  const job: OcrJob | undefined = input.options.ocr
    ? { filename: input.filename, languages: await ocrLanguages(input.options.ocrLanguages), signal }
    : undefined;
  const pdf = await openPdf(input);
  try {
    const { title, metadata } = infoToMetadata((await pdf.getMetadata()).info);
    metadata.pages = String(pdf.numPages);
    if (pdf.numPages > limits.maxPages) throw tooManyPages(input.filename, pdf.numPages, limits);
    const readImages = job ? (page: PdfPage, pageNumber: number) => readPageImages(page, pageNumber, job) : undefined;
    const overtime = (pageNumber: number) =>
      performance.now() > deadline ? tooSlow(input.filename, pageNumber, pdf.numPages, limits) : undefined;
    const pages = await readPages(pdf, input.filename, readImages, overtime, signal);
    if (!job && pages.every(({ lines }) => lines.length === 0)) {
      // No text at all: a scan or pictures of text, which OCR (INDEXING_OCR_ENABLED) would read.
      return { ...(title === undefined ? {} : { title }), blocks: [], metadata: { ...metadata, needs_ocr: 'true' } };
    }
    const headingLevel = rankHeadingSizes(pages.map(({ lines }) => lines));
    const blocks: ExtractedBlock[] = [];
    pages.forEach(({ lines, ocr: read }, index) => {
      const page = index + 1;
      // The break before each page after the first carries the number of the page it opens.
      if (page > 1) blocks.push({ kind: 'page_break', text: '', page });
      blocks.push(...pageBlocks(lines, page, { tables: input.options.tables, headingLevel }));
      // OCR adds to the text layer of the page, it never replaces it.
      for (const paragraph of read?.paragraphs ?? []) blocks.push({ kind: 'paragraph', text: paragraph, page });
    });
    return { ...(title === undefined ? {} : { title }), blocks, metadata: { ...metadata, ...ocrMetadata(pages) } };
  } finally {
    // Frees pdf.js's parsed objects and its in-thread "worker"; this pdf.js has no pdf.destroy().
    await pdf.loadingTask.destroy();
  }
}

/** metadata.ocr, ocr_pages (how many pages OCR read) and ocr_confidence (mean word confidence, 0–100). */
function ocrMetadata(pages: readonly PageContent[]): Record<string, string> {
  const read = pages.flatMap(({ ocr }) => (ocr ? [ocr] : []));
  if (read.length === 0) return {};
  const confidences = read.flatMap((page) => page.wordConfidences);
  const metadata: Record<string, string> = { ocr: 'true', ocr_pages: String(read.length) };
  if (confidences.length > 0)
    metadata.ocr_confidence = String(
      Math.round(confidences.reduce((sum, value) => sum + value, 0) / confidences.length),
    );
  return metadata;
}

async function openPdf(input: ExtractorInput): Promise<PdfDocument> {
  let data: Uint8Array;
  try {
    data = new Uint8Array(await readFile(input.path));
  } catch (error) {
    throw notReadable(input.filename, error);
  }
  try {
    // Errors only: pdf.js warns on the console about every recoverable flaw in a file.
    return await getDocumentProxy(data, { verbosity: 0 });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      throw new DocqaError(
        'unsupported_media_type',
        `${input.filename} is encrypted; remove the password and upload it again`,
        {
          cause: error,
        },
      );
    }
    throw notReadable(input.filename, error);
  }
}

async function readPages(
  pdf: PdfDocument,
  filename: string,
  readImages: ((page: PdfPage, pageNumber: number) => Promise<PageText | undefined>) | undefined,
  /** The error to stop with before reading page `pageNumber`, once the time is up. */
  overtime: (pageNumber: number) => DocqaError | undefined,
  signal: AbortSignal | undefined,
): Promise<PageContent[]> {
  const pages: PageContent[] = [];
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber += 1) {
    signal?.throwIfAborted();
    const timeUp = overtime(pageNumber);
    if (timeUp) throw timeUp;
    let page: Awaited<ReturnType<PdfDocument['getPage']>>;
    let lines: TextLine[];
    try {
      page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      // Marked-content items (tags of tagged PDFs) carry no text.
      const items: PositionedText[] = content.items.flatMap((item) => ('str' in item ? [item] : []));
      lines = joinIntoLines(items);
    } catch (error) {
      throw notReadable(filename, error, `page ${pageNumber}`);
    }
    try {
      // Only pages without a real text layer are rendered: text pages cost OCR nothing.
      const ocr =
        readImages && countCharacters(lines) < minNativeCharacters
          ? await readImages(page as unknown as PdfPage, pageNumber)
          : undefined;
      pages.push(ocr ? { lines, ocr } : { lines });
    } finally {
      // Frees the page's decoded images and fonts before the next page is read.
      page.cleanup();
    }
  }
  return pages;
}

function countCharacters(lines: readonly TextLine[]): number {
  let count = 0;
  for (const line of lines) count += line.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return count;
}

/**
 * Heading levels by size across the whole document, so that the same heading size has the same level
 * on every page: the largest heading size is level 1, the next 2, all smaller ones 3.
 */
function rankHeadingSizes(pages: readonly TextLine[][]): (fontSize: number) => number | undefined {
  const sizes = new Set<number>();
  for (const lines of pages) {
    const median = medianFontSize(lines);
    for (const line of lines) if (isHeadingLine(line, median)) sizes.add(headingSizeKey(line.fontSize));
  }
  const ranked = [...sizes].sort((a, b) => b - a);
  return (fontSize) => {
    const rank = ranked.indexOf(headingSizeKey(fontSize));
    return rank < 0 ? undefined : Math.min(rank + 1, maxHeadingLevel);
  };
}

function tooManyPages(filename: string, pages: number, limits: PdfExtractorOptions): DocqaError {
  return new DocqaError(
    'file_too_large',
    `${filename} has ${pages} pages, more than ${limits.maxPages}; it was not read. ` +
      'The limit is the maxPages option of extractor-pdf (docs/security.md).',
    { extra: { limit: 'maxPages' } },
  );
}

function tooSlow(filename: string, pageNumber: number, pages: number, limits: PdfExtractorOptions): DocqaError {
  return new DocqaError(
    'file_too_large',
    `${filename} took longer than ${limits.maxExtractionSeconds} s to read ` +
      `(stopped before page ${pageNumber} of ${pages}); ` +
      'it was given up. The limit is the maxExtractionSeconds option of extractor-pdf (docs/security.md).',
    { extra: { limit: 'maxExtractionSeconds' } },
  );
}

function notReadable(filename: string, cause: unknown, where?: string): DocqaError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DocqaError(
    'unsupported_media_type',
    `${filename} is not a readable PDF${where ? ` (${where})` : ''}: ${reason}`,
    { cause },
  );
}
