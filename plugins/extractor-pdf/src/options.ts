import { z } from 'zod';

/**
 * The extractor's limits (docs/security.md). A 16 MB PDF of 100,000 pages held an extraction slot
 * for 600 s; a few such files stalled ingestion. The page count is known as soon as the file is
 * open, so a PDF over maxPages is refused at once; maxExtractionSeconds bounds the rest (OCR of
 * scanned pages included), checked between pages. OCR itself is switched and tuned for the whole
 * pipeline by INDEXING_OCR_ENABLED and INDEXING_OCR_LANGUAGES. Strict so that a misspelt option
 * stops start-up instead of being ignored.
 */
export const pdfExtractorOptionsSchema = z.strictObject({
  /** Most pages a PDF may have; 5,000 is a very long manual. */
  maxPages: z.number().int().min(1).max(1_000_000).default(5_000),
  /** Most seconds reading one PDF may take; below the extraction pool's own INDEX_EXTRACTION_TIMEOUT_SECONDS (600). */
  maxExtractionSeconds: z.number().int().min(1).max(86_400).default(300),
});

export type PdfExtractorOptions = z.output<typeof pdfExtractorOptionsSchema>;
