import { definePlugin } from '@docqa/plugin-api';
import { mdExtractorOptionsSchema } from './config.js';
import { mdExtractorProvider } from './provider.js';

export { mdExtractorProvider } from './provider.js';

/** Markdown files: headings with levels, paragraphs, lists, code, pipe tables and front matter. */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-md',
  description: 'Extracts Markdown with its heading structure, tables and front matter.',
  configSchema: mdExtractorOptionsSchema,
  deps: {},
  init() {
    return mdExtractorProvider;
  },
});
