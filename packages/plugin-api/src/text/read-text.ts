/**
 * Reading text files for extractors: the shared way to decode bytes (UTF-8, or UTF-16 with a BOM)
 * and refuse binary or invalid files with a clear 415, streamed so big files stay in bounded memory.
 */
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { DocqaError } from '../errors.js';

type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** UTF-16 is recognised only by its byte-order mark; everything else must be UTF-8 (a UTF-8 BOM is fine). */
function encodingFromByteOrderMark(head: Uint8Array): TextEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

function notText(filename: string, why: string, cause?: unknown): DocqaError {
  return new DocqaError(
    'unsupported_media_type',
    `'${filename}' is not text: ${why}.`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * Decodes a text file chunk by chunk, so a large file is never held as bytes and string at once.
 * The decoder strips the byte-order mark and, being fatal, turns invalid UTF-8 into a clear refusal
 * instead of silently indexing replacement characters. A NUL character marks a binary file.
 */
export async function* decodeTextFile(path: string, filename: string, signal?: AbortSignal): AsyncGenerator<string> {
  signal?.throwIfAborted();
  const stream = createReadStream(path);
  let decoder: TextDecoder | undefined;
  const binary = () => notText(filename, 'it contains NUL bytes, so it is probably a binary file');
  const decode = (bytes?: Uint8Array): string => {
    // Checked on the bytes first: a binary file is usually invalid UTF-8 as well, and "binary" is the better answer.
    if (bytes && decoder!.encoding === 'utf-8' && bytes.includes(0)) throw binary();
    let text: string;
    try {
      text = bytes ? decoder!.decode(bytes, { stream: true }) : decoder!.decode();
    } catch (error) {
      throw notText(filename, `it is not valid ${decoder!.encoding.toUpperCase()} (save it as UTF-8)`, error);
    }
    if (text.includes('\u0000')) throw binary();
    return text;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      decoder ??= new TextDecoder(encodingFromByteOrderMark(chunk), { fatal: true });
      const text = decode(chunk);
      if (text) yield text;
    }
    if (decoder) {
      const rest = decode();
      if (rest) yield rest;
    }
  } finally {
    stream.destroy();
  }
}

/**
 * The lines of a text file without their line ends (LF, CRLF or a lone CR). A line is complete only
 * once its LF arrived, so a CRLF split across two chunks is still one line end.
 */
export async function* readTextLines(path: string, filename: string, signal?: AbortSignal): AsyncGenerator<string> {
  let pending = '';
  for await (const text of decodeTextFile(path, filename, signal)) {
    pending += text;
    const lastLineEnd = pending.lastIndexOf('\n');
    if (lastLineEnd < 0) continue;
    const complete = pending.slice(0, lastLineEnd);
    pending = pending.slice(lastLineEnd + 1);
    yield* complete.replace(/\r\n?/g, '\n').split('\n');
  }
  if (pending) yield* pending.replace(/\r\n?/g, '\n').split('\n');
}
