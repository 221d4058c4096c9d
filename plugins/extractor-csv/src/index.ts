import { definePlugin } from '@docqa/plugin-api';
import { csvExtractorOptionsSchema } from './config.js';
import { csvExtractorProvider } from './provider.js';

export { csvExtractorProvider } from './provider.js';

/** CSV and TSV files (PRO plan and up): each data row a `Header: value; …` table row. */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-csv',
  description: 'Extracts CSV and TSV files row by row (papaparse), each row labelled with the header.',
  configSchema: csvExtractorOptionsSchema,
  deps: {},
  init() {
    return csvExtractorProvider;
  },
});
