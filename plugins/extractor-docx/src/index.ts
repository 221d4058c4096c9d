import { definePlugin, workerModuleUrl } from '@docqa/plugin-api';
import type { ExtractorProvider } from '@docqa/plugin-api';
import { docxExtractorOptionsSchema, type DocxExtractorOptions } from './options.js';

export { docxExtractorOptionsSchema, type DocxExtractorOptions } from './options.js';

export const docxMediaType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Word documents: headings with their levels, paragraphs, list items and tables (mammoth). */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-docx',
  description: 'Extracts Word (.docx) documents with their headings and tables.',
  configSchema: docxExtractorOptionsSchema,
  deps: {},
  init: ({ options }) => createDocxExtractorProvider(options),
});

export function createDocxExtractorProvider(
  options: DocxExtractorOptions = docxExtractorOptionsSchema.parse({}),
): ExtractorProvider {
  return {
    // The pipeline's extraction worker threads import this module and call its `extract` with these options.
    workerModule: workerModuleUrl(new URL('./extract.js', import.meta.url), options),
    mediaTypes: [docxMediaType],
    extensions: ['.docx'],
    capabilities: { tables: true, ocr: false },
    // Imported on first use: the server extracts in worker threads, so the main process never
    // loads mammoth for nothing (12 MB resident measured).
    extract: async (input, signal) => (await import('./extract.js')).extract(input, signal, options),
  };
}
