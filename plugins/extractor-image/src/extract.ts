// Runs inside the ingestion pipeline's extraction worker threads: import nothing that needs the kernel.
import { DocqaError } from '@docqa/plugin-api';
import type { ExtractedBlock, ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { countImagePages, renderPage, upscaleFactor, upscalePage, type PageImage } from './normalise-image.js';
import {
  defaultOcrLanguages,
  meanConfidence,
  recognisePng,
  traineddataFile,
  type OcrJob,
  type PageText,
} from '@docqa/ocr';

/**
 * Reads the text of a PNG, JPEG or TIFF image with OCR (tesseract.js, offline), one page at a time:
 * paragraphs as tesseract finds them, page_break blocks between the pages of a multi-page TIFF,
 * metadata.ocr = 'true' and metadata.ocr_confidence, the mean word confidence (0 to 100).
 */
export async function extract(input: ExtractorInput, signal?: AbortSignal): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  if (!input.options.ocr) {
    throw new DocqaError(
      'unsupported_media_type',
      `${input.filename} is an image; set INDEXING_OCR_ENABLED=true to read text from images`,
    );
  }
  const languages = [
    ...new Set(input.options.ocrLanguages.length > 0 ? input.options.ocrLanguages : defaultOcrLanguages),
  ];
  // Checked before any pixel is decoded, so a missing language fails fast with the package to install.
  for (const code of languages) await traineddataFile(code);
  const pageCount = await countImagePages(input.path, input.filename);

  const blocks: ExtractedBlock[] = [];
  const confidences: number[] = [];
  for (let pageIndex = 0; pageIndex < pageCount; pageIndex += 1) {
    signal?.throwIfAborted();
    const page = pageIndex + 1;
    // The break before each page after the first carries the number of the page it opens, as in PDFs.
    if (page > 1) blocks.push({ kind: 'page_break', text: '', page });
    // Pages are decoded one at a time: a 100-page fax holds one page in memory, not a hundred.
    const text = await readPage(await renderPage(input.path, input.filename, pageIndex), {
      filename: input.filename,
      languages,
      signal,
    });
    for (const paragraph of text.paragraphs) blocks.push({ kind: 'paragraph', text: paragraph, page });
    confidences.push(...text.wordConfidences);
  }
  const metadata: Record<string, string> = { ocr: 'true', pages: String(pageCount) };
  if (confidences.length > 0) metadata.ocr_confidence = String(Math.round(meanConfidence(confidences)));
  return { blocks, metadata };
}

/**
 * OCR of one page. When its text turns out smaller than tesseract reads well (screenshots, small
 * print scanned at low resolution), the page is upscaled and read again, and the more confident
 * reading wins. Measuring the text first costs a second pass only for pages that need it.
 */
async function readPage(image: PageImage, job: OcrJob): Promise<PageText> {
  const first = await recognise(image, job);
  const factor = upscaleFactor(first.lineHeight, image);
  if (factor === 1) return first;
  const second = await recognise(await upscalePage(image, factor), job);
  return meanConfidence(second.wordConfidences) >= meanConfidence(first.wordConfidences) ||
    first.paragraphs.length === 0
    ? second
    : first;
}

function recognise(image: PageImage, job: OcrJob): Promise<PageText> {
  return recognisePng(image.png, job);
}
