import { z } from 'zod';
import { defaultMaxTextCharacters, maxTextCharactersSchema, zipLimitsSchema } from '@docqa/plugin-api';

/**
 * The extractor's limits (docs/security.md). A .docx is a zip archive that mammoth inflates into
 * memory whole, so the archive is checked before mammoth reads it. Images (word/media) and embedded
 * objects are never inflated by this extractor, so they count as entries but not towards the size.
 * 64 MB of document XML is well over 10,000 pages; mammoth needs about 13 times the XML's size in
 * memory, which keeps a document within the worker heap limit (INDEX_EXTRACTION_WORKER_HEAP_MB, 1 GB).
 * Strict so that a misspelt option stops start-up instead of being ignored.
 */
export const docxExtractorOptionsSchema = z.strictObject({
  ...zipLimitsSchema({ maxEntries: 10_000, maxUncompressedBytes: 64 * 1024 * 1024, maxCompressionRatio: 100 }),
  /** Most characters of text one document may yield. */
  maxTextCharacters: maxTextCharactersSchema(defaultMaxTextCharacters),
});

export type DocxExtractorOptions = z.output<typeof docxExtractorOptionsSchema>;

/** Parts of a .docx that mammoth never inflates when images are skipped. */
export function isInflatedPart(entryName: string): boolean {
  return !/^word\/(media|embeddings)\//.test(entryName);
}
