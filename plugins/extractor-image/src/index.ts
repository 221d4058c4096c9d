import { definePlugin } from '@docqa/plugin-api';
import { imageExtractorOptionsSchema } from './config.js';
import { imageExtractorProvider } from './provider.js';

export { imageExtractorProvider, imageMediaTypes } from './provider.js';
export { stopOcrWorkers } from '@docqa/ocr';

/** Images (PNG, JPEG, multi-page TIFF): text read by OCR when INDEXING_OCR_ENABLED is on. */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-image',
  description:
    'Reads text from PNG, JPEG and TIFF images with OCR (tesseract.js, offline), when INDEXING_OCR_ENABLED is on.',
  configSchema: imageExtractorOptionsSchema,
  deps: {},
  init() {
    return imageExtractorProvider;
  },
});
