import { definePlugin, workerModuleUrl } from '@docqa/plugin-api';
import type { ExtractorProvider } from '@docqa/plugin-api';
import { pdfExtractorOptionsSchema, type PdfExtractorOptions } from './options.js';

export { pdfExtractorOptionsSchema, type PdfExtractorOptions } from './options.js';

export { stopOcrWorkers } from '@docqa/ocr';

export const pdfMediaType = 'application/pdf';

/** PDFs: the text layer (pages, headings guessed from font sizes, simple tables), and OCR of scanned pages. */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-pdf',
  description:
    'Extracts the text layer of PDF files, page by page, with headings and simple tables; ' +
    'reads scanned pages with OCR when INDEXING_OCR_ENABLED is on.',
  configSchema: pdfExtractorOptionsSchema,
  deps: {},
  init: ({ options }) => createPdfExtractorProvider(options),
});

export function createPdfExtractorProvider(
  options: PdfExtractorOptions = pdfExtractorOptionsSchema.parse({}),
): ExtractorProvider {
  return {
    // The pipeline's extraction worker threads import this module and call its `extract` with these options.
    workerModule: workerModuleUrl(new URL('./extract.js', import.meta.url), options),
    mediaTypes: [pdfMediaType],
    extensions: ['.pdf'],
    // OCR of pages without a text layer, when the pipeline's options turn it on.
    capabilities: { tables: true, ocr: true },
    // The worker module loads sharp (for OCR) with every PDF; so does the main thread, as sharp asks
    // (a worker thread that exits would otherwise unload libvips while another thread still uses
    // it, crashing the process), but only once a PDF comes: about 30 MB resident with libvips.
    prepareMainThread: async () => {
      await import('sharp');
    },
    extract: async (input, signal) => (await import('./extract.js')).extract(input, signal, options),
  };
}
