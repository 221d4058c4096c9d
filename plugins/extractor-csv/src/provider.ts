import type { ExtractorProvider } from '@docqa/plugin-api';
import { extract } from './extract.js';

/** The provider the plugin registers; tests use it directly. It holds no state, so one serves every instance. */
export const csvExtractorProvider: ExtractorProvider = {
  // The pipeline's worker threads import this module, not this file, so a crash stays in the worker.
  workerModule: new URL('./extract.js', import.meta.url).href,
  mediaTypes: ['text/csv', 'text/tab-separated-values'],
  extensions: ['.csv', '.tsv'],
  requiredPlan: 'PRO',
  // Rows always come out as table rows, so the flag is true even though options.tables changes nothing.
  capabilities: { tables: true, ocr: false },
  extract: (input, signal) => extract(input, signal),
};
