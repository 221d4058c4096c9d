import type { ExtractorProvider } from '@docqa/plugin-api';
// Importing extract.ts loads sharp in the main thread too. sharp asks for that: a worker thread that
// exits would otherwise unload libvips while another thread still uses it, crashing the process.
import { extract } from './extract.js';

export const imageMediaTypes = ['image/png', 'image/jpeg', 'image/tiff'] as const;

/** The provider the plugin registers; tests use it directly. Its OCR workers live per thread, so one serves every instance. */
export const imageExtractorProvider: ExtractorProvider = {
  // The pipeline's worker threads import this module, so OCR never runs on the server's main thread.
  workerModule: new URL('./extract.js', import.meta.url).href,
  mediaTypes: imageMediaTypes,
  extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff'],
  capabilities: { tables: false, ocr: true },
  extract: (input, signal) => extract(input, signal),
};
