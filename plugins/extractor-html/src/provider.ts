import type { ExtractorProvider } from '@docqa/plugin-api';
import { extract } from './extract.js';

/** The provider the plugin registers; tests use it directly. It holds no state, so one serves every instance. */
export const htmlExtractorProvider: ExtractorProvider = {
  // The pipeline's worker threads import this module, not this file, so a crash stays in the worker.
  workerModule: new URL('./extract.js', import.meta.url).href,
  mediaTypes: ['text/html'],
  extensions: ['.html', '.htm'],
  requiredPlan: 'PRO',
  capabilities: { tables: true, ocr: false },
  extract: (input, signal) => extract(input, signal),
};
