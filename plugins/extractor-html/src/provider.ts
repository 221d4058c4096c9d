import type { ExtractorProvider } from '@docqa/plugin-api';

/** The provider the plugin registers; tests use it directly. It holds no state, so one serves every instance. */
export const htmlExtractorProvider: ExtractorProvider = {
  // The pipeline's worker threads import this module, not this file, so a crash stays in the worker.
  workerModule: new URL('./extract.js', import.meta.url).href,
  mediaTypes: ['text/html'],
  extensions: ['.html', '.htm'],
  requiredPlan: 'PRO',
  capabilities: { tables: true, ocr: false },
  // Imported on first use: the server extracts in worker threads, so the main process never
  // loads cheerio for nothing (26 MB resident measured).
  extract: async (input, signal) => (await import('./extract.js')).extract(input, signal),
};
