import { readFile } from 'node:fs/promises';
import { DocqaError } from '@docqa/plugin-api';

/**
 * The file as a string. HTML is parsed into a DOM, so it is read whole. The bytes are decoded as
 * UTF-8 (or UTF-16 with a byte-order mark); a `<meta charset>` naming another encoding is ignored and
 * its non-ASCII characters come out as U+FFFD, which is better than refusing an old page outright.
 * A NUL byte outside UTF-16 means a binary file, which no HTML parser should be handed.
 */
export async function readHtmlFile(path: string, filename: string, signal?: AbortSignal): Promise<string> {
  const bytes = await readFile(path, signal ? { signal } : {}).catch((error: unknown) => {
    signal?.throwIfAborted();
    throw error;
  });
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  if (encoding === 'utf-8' && bytes.includes(0)) {
    throw new DocqaError(
      'unsupported_media_type',
      `'${filename}' is not HTML: it contains NUL bytes, so it is probably a binary file.`,
    );
  }
  return new TextDecoder(encoding).decode(bytes);
}
