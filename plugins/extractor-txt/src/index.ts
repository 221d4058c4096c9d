import { definePlugin } from '@docqa/plugin-api';
import { txtExtractorOptionsSchema } from './config.js';
import { txtExtractorProvider } from './provider.js';

export { txtExtractorProvider } from './provider.js';

/** Plain text files (UTF-8, or UTF-16 with a byte-order mark): paragraphs and form-feed page breaks. */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-txt',
  description: 'Extracts plain text files: paragraphs split on blank lines, pages on form feeds.',
  configSchema: txtExtractorOptionsSchema,
  deps: {},
  init() {
    return txtExtractorProvider;
  },
});
