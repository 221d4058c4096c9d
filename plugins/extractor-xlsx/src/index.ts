import { definePlugin, workerModuleUrl } from '@docqa/plugin-api';
import type { ExtractorProvider } from '@docqa/plugin-api';
import { xlsxExtractorOptionsSchema, type XlsxExtractorOptions } from './options.js';

export { xlsxExtractorOptionsSchema, type XlsxExtractorOptions } from './options.js';

export const xlsxMediaType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Excel workbooks: each sheet a heading, each row a "Header: value; …" block (exceljs, streamed). */
export default definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-xlsx',
  description: 'Extracts Excel (.xlsx) workbooks row by row, with the first row as headers.',
  configSchema: xlsxExtractorOptionsSchema,
  deps: {},
  init: ({ options }) => createXlsxExtractorProvider(options),
});

export function createXlsxExtractorProvider(
  options: XlsxExtractorOptions = xlsxExtractorOptionsSchema.parse({}),
): ExtractorProvider {
  return {
    // The pipeline's extraction worker threads import this module and call its `extract` with these options.
    workerModule: workerModuleUrl(new URL('./extract.js', import.meta.url), options),
    mediaTypes: [xlsxMediaType],
    extensions: ['.xlsx'],
    // Spreadsheets are a paid-plan file type.
    requiredPlan: 'PRO',
    capabilities: { tables: true, ocr: false },
    // Imported on first use: the server extracts in worker threads, so the main process never
    // loads exceljs for nothing (25 MB resident measured).
    extract: async (input, signal) => (await import('./extract.js')).extract(input, signal, options),
  };
}
