import { z } from 'zod';
import type { Entry, ZipFile } from 'yauzl';
import { DocqaError } from '../errors.js';

/*
 * Zip bomb limits for formats that are zip archives (DOCX, XLSX). A parser such as mammoth (jszip)
 * inflates whole parts into memory: a 0.9 MB DOCX inflating to 319 MB of XML took a process to 4.3
 * GB. The archive is checked before the parser sees it, entry by entry, from the central directory
 * (what each entry says it inflates to), then by inflating each entry into nothing, counting bytes,
 * because the sizes an archive declares can lie (yauzl fails an entry that inflates to more than
 * it declared). Memory stays at one inflate window whatever the archive holds.
 */

export interface ZipLimits {
  /** Most entries (files) in the archive. */
  maxEntries: number;
  /** Most bytes all checked entries inflate to, together. */
  maxUncompressedBytes: number;
  /** Most uncompressed bytes per compressed byte, of any checked entry larger than `ratioGraceBytes`. */
  maxCompressionRatio: number;
}

/** Small entries may compress extremely well (a run of spaces); the ratio is checked above this size only. */
export const ratioGraceBytes = 1024 * 1024;

/** The three zip limits as plugin options (each extractor sets its own defaults). */
export function zipLimitsSchema(defaults: ZipLimits) {
  return {
    maxEntries: z.number().int().min(10).max(1_000_000).default(defaults.maxEntries),
    maxUncompressedBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(16 * 1024 ** 3)
      .default(defaults.maxUncompressedBytes),
    maxCompressionRatio: z.number().min(2).max(100_000).default(defaults.maxCompressionRatio),
  };
}

export interface ZipCheck {
  filename: string;
  /** The plugin whose options these limits are, named in errors: "extractor-docx". */
  plugin: string;
  limits: ZipLimits;
  /** Entries the parser never inflates (images a text extractor skips) count as entries only. */
  isInflated?(entryName: string): boolean;
}

/** Throws a DocqaError naming the limit and its option when the archive at `path` exceeds one. */
export async function checkZipLimits(path: string, check: ZipCheck): Promise<void> {
  const yauzl = (await import('yauzl')).default;
  let zip: ZipFile;
  try {
    const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true };
    zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(path, options, (error, file) => (error ? reject(error) : resolve(file))),
    );
  } catch (error) {
    throw unreadable(check, error);
  }
  try {
    const entries = await centralDirectory(zip, check).catch((error: unknown) => {
      throw DocqaError.is(error) ? error : unreadable(check, error);
    });
    for (const entry of entries) await inflateIntoNothing(zip, entry, check);
  } finally {
    zip.close();
  }
}

function unreadable(check: ZipCheck, cause: unknown): DocqaError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const message = `${check.filename} is not a readable zip archive: ${reason}`;
  return new DocqaError('unsupported_media_type', message, { cause });
}

async function centralDirectory(zip: ZipFile, check: ZipCheck): Promise<Entry[]> {
  const { limits } = check;
  if (zip.entryCount > limits.maxEntries) {
    throw exceeded(check, 'maxEntries', `has ${zip.entryCount} entries, more than ${limits.maxEntries}`);
  }
  const entries: Entry[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: Entry) => {
      if (entry.fileName.endsWith('/') || check.isInflated?.(entry.fileName) === false) return zip.readEntry();
      total += entry.uncompressedSize;
      if (total > limits.maxUncompressedBytes) {
        const what = `inflates to more than ${limits.maxUncompressedBytes} bytes`;
        return reject(exceeded(check, 'maxUncompressedBytes', what));
      }
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize > ratioGraceBytes && ratio > limits.maxCompressionRatio) {
        const what =
          `has an entry (${entry.fileName}) compressed ${Math.round(ratio)} to 1, ` +
          `more than ${limits.maxCompressionRatio} to 1`;
        return reject(exceeded(check, 'maxCompressionRatio', what));
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
  return entries;
}

/** Inflates an entry only to count it: yauzl fails it when it inflates to more than it declared. */
async function inflateIntoNothing(zip: ZipFile, entry: Entry, check: ZipCheck): Promise<void> {
  try {
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (error, readable) => (error ? reject(error) : resolve(readable))),
    );
    for await (const _chunk of stream) {
      // Nothing to keep: the bytes are counted by yauzl against the declared size.
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/too many bytes/i.test(reason)) {
      const what = `has an entry (${entry.fileName}) that inflates to more than the size it declares`;
      throw exceeded(check, 'maxUncompressedBytes', what);
    }
    throw unreadable(check, error);
  }
}

function exceeded(check: ZipCheck, option: keyof ZipLimits, what: string): DocqaError {
  return new DocqaError(
    'file_too_large',
    `${check.filename} ${what}; it looks like a zip bomb and was not read. ` +
      `The limit is the ${option} option of ${check.plugin} (docs/security.md).`,
    { extra: { limit: option } },
  );
}
