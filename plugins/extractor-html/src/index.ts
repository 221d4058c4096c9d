import { definePlugin } from '@docqa/plugin-api';
import { htmlExtractorOptionsSchema } from './config.js';
import { htmlExtractorProvider } from './provider.js';

export { htmlExtractorProvider } from './provider.js';

/** HTML pages (PRO plan and up): headings, paragraphs and tables, without scripts, navigation and footers. */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-html',
  description: 'Extracts HTML pages with their heading structure and tables (cheerio).',
  configSchema: htmlExtractorOptionsSchema,
  deps: {},
  init() {
    return htmlExtractorProvider;
  },
});
