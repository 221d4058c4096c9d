import { z } from 'zod';
import { definePlugin } from '@docqa/plugin-api';
import type { ExtractorProvider } from '@docqa/plugin-api';
import { extract } from './extract.js';

export const pdfMediaType = 'application/pdf';

/** Nothing to configure; strict so that a misspelt option stops start-up instead of being ignored. */
export const pdfExtractorOptionsSchema = z.strictObject({});

/** PDFs with a text layer: pages, headings guessed from font sizes, simple tables (unpdf / pdf.js). */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-pdf',
  description: 'Extracts the text layer of PDF files, page by page, with headings and simple tables.',
  configSchema: pdfExtractorOptionsSchema,
  deps: {},
  init: () => createPdfExtractorProvider(),
});

export function createPdfExtractorProvider(): ExtractorProvider {
  return {
    // The pipeline's extraction worker threads import this module and call its `extract`.
    workerModule: new URL('./extract.js', import.meta.url).href,
    mediaTypes: [pdfMediaType],
    extensions: ['.pdf'],
    // No OCR yet: a scanned PDF comes back empty with metadata.needs_ocr = 'true'.
    capabilities: { tables: true, ocr: false },
    extract: (input, signal) => extract(input, signal),
  };
}
