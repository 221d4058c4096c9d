import { z } from 'zod';
import { definePlugin } from '@docqa/plugin-api';
import type { ExtractorProvider } from '@docqa/plugin-api';

export const docxMediaType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Nothing to configure; strict so that a misspelt option stops start-up instead of being ignored. */
export const docxExtractorOptionsSchema = z.strictObject({});

/** Word documents: headings with their levels, paragraphs, list items and tables (mammoth). */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-docx',
  description: 'Extracts Word (.docx) documents with their headings and tables.',
  configSchema: docxExtractorOptionsSchema,
  deps: {},
  init: () => createDocxExtractorProvider(),
});

export function createDocxExtractorProvider(): ExtractorProvider {
  return {
    // The pipeline's extraction worker threads import this module and call its `extract`.
    workerModule: new URL('./extract.js', import.meta.url).href,
    mediaTypes: [docxMediaType],
    extensions: ['.docx'],
    capabilities: { tables: true, ocr: false },
    // Imported on first use: the server extracts in worker threads, so the main process never
    // loads mammoth for nothing (12 MB resident measured).
    extract: async (input, signal) => (await import('./extract.js')).extract(input, signal),
  };
}
