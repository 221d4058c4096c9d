import type { ExtractorProvider } from '@docqa/plugin-api';
import { extract } from './extract.js';

/** The provider the plugin registers; tests use it directly. It holds no state, so one serves every instance. */
export const mdExtractorProvider: ExtractorProvider = {
  // The pipeline's worker threads import this module, not this file, so a crash stays in the worker.
  workerModule: new URL('./extract.js', import.meta.url).href,
  mediaTypes: ['text/markdown'],
  extensions: ['.md', '.markdown'],
  capabilities: { tables: true, ocr: false },
  extract: (input, signal) => extract(input, signal),
};
