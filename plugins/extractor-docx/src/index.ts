import { z } from 'zod';
import { definePlugin } from '@docqa/plugin-api';
import type { ExtractorProvider } from '@docqa/plugin-api';
import { extract } from './extract.js';

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
    extract: (input, signal) => extract(input, signal),
  };
}
