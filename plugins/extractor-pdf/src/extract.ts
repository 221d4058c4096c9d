import { readFile } from 'node:fs/promises';
import { getDocumentProxy } from 'unpdf';
import { DocqaError } from '@docqa/plugin-api';
import type { ExtractedBlock, ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { headingSizeKey, isHeadingLine, medianFontSize, pageBlocks } from './page-blocks.js';
import { infoToMetadata } from './pdf-info.js';
import { joinIntoLines } from './text-lines.js';
import type { PositionedText, TextLine } from './text-lines.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** Heading sizes beyond the third largest all rank as level 3: deeper levels guessed from sizes mislead. */
const maxHeadingLevel = 3;

/**
 * Extracts a PDF's text layer with unpdf (pdf.js built for servers, bundled: no worker, no network).
 * Runs in an extraction worker thread: it imports nothing but the plugin API and its parser.
 * Pages are separated by page_break blocks and every block carries its page number. A PDF without a
 * text layer (a scan) yields no blocks and metadata.needs_ocr = 'true'.
 */
export async function extract(input: ExtractorInput, signal?: AbortSignal): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  const pdf = await openPdf(input);
  try {
    const { title, metadata } = infoToMetadata((await pdf.getMetadata()).info);
    metadata.pages = String(pdf.numPages);
    const pages = await readPageLines(pdf, input.filename, signal);
    if (pages.every((lines) => lines.length === 0)) {
      // No text at all: a scan or pictures of text. OCR, when it comes, will read these.
      return { ...(title === undefined ? {} : { title }), blocks: [], metadata: { ...metadata, needs_ocr: 'true' } };
    }
    const headingLevel = rankHeadingSizes(pages);
    const blocks: ExtractedBlock[] = [];
    pages.forEach((lines, index) => {
      const page = index + 1;
      // The break before each page after the first carries the number of the page it opens.
      if (page > 1) blocks.push({ kind: 'page_break', text: '', page });
      blocks.push(...pageBlocks(lines, page, { tables: input.options.tables, headingLevel }));
    });
    return { ...(title === undefined ? {} : { title }), blocks, metadata };
  } finally {
    // Frees pdf.js's parsed objects and its in-thread "worker"; this pdf.js has no pdf.destroy().
    await pdf.loadingTask.destroy();
  }
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
      throw new DocqaError('unsupported_media_type', `${input.filename} is encrypted; remove the password and upload it again`, {
        cause: error,
      });
    }
    throw notReadable(input.filename, error);
  }
}

async function readPageLines(pdf: PdfDocument, filename: string, signal: AbortSignal | undefined): Promise<TextLine[][]> {
  const pages: TextLine[][] = [];
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber += 1) {
    signal?.throwIfAborted();
    try {
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      // Marked-content items (tags of tagged PDFs) carry no text.
      const items: PositionedText[] = content.items.flatMap((item) => ('str' in item ? [item] : []));
      pages.push(joinIntoLines(items));
      page.cleanup();
    } catch (error) {
      throw notReadable(filename, error, `page ${pageNumber}`);
    }
  }
  return pages;
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

function notReadable(filename: string, cause: unknown, where?: string): DocqaError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DocqaError('unsupported_media_type', `${filename} is not a readable PDF${where ? ` (${where})` : ''}: ${reason}`, { cause });
}
