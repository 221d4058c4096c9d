import { z } from 'zod';
import { defaultMaxTextCharacters, maxTextCharactersSchema, zipLimitsSchema } from '@docqa/plugin-api';

/**
 * The extractor's limits (docs/security.md). An .xlsx is a zip archive; exceljs streams its sheets
 * row by row, but caches the shared strings in memory and may spool sheets to temporary files, so
 * the archive is checked before exceljs reads it. Images and embedded objects are not inflated into
 * memory and count as entries only. Strict so that a misspelt option stops start-up instead of being
 * ignored.
 */
export const xlsxExtractorOptionsSchema = z.strictObject({
  ...zipLimitsSchema({ maxEntries: 10_000, maxUncompressedBytes: 512 * 1024 * 1024, maxCompressionRatio: 100 }),
  /** Most characters of text one workbook may yield ("Header: value; …" rows included). */
  maxTextCharacters: maxTextCharactersSchema(defaultMaxTextCharacters),
});

export type XlsxExtractorOptions = z.output<typeof xlsxExtractorOptionsSchema>;

/** Parts of an .xlsx whose bytes never reach memory: pictures and embedded objects. */
export function isInflatedPart(entryName: string): boolean {
  return !/^xl\/(media|embeddings)\//.test(entryName);
}
