import type { ExtractorProvider } from '@docqa/plugin-api';

export const imageMediaTypes = ['image/png', 'image/jpeg', 'image/tiff'] as const;

/**
 * The provider the plugin registers; tests use it directly. Its OCR
 * workers live per thread, so one serves every instance.
 */
export const imageExtractorProvider: ExtractorProvider = {
  // The pipeline's worker threads import this module, so OCR never runs on the server's main thread.
  workerModule: new URL('./extract.js', import.meta.url).href,
  mediaTypes: imageMediaTypes,
  extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff'],
  capabilities: { tables: false, ocr: true },
  // sharp (about 30 MB resident with libvips) loads when the first image is extracted, in the main
  // thread too, as sharp asks: a worker thread that exits would otherwise unload libvips while
  // another thread still uses it, crashing the process.
  prepareMainThread: async () => {
    await import('sharp');
  },
  extract: async (input, signal) => (await import('./extract.js')).extract(input, signal),
};
