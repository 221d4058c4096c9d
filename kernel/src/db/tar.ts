/**
 * The little of the tar format (POSIX ustar) that the embedded database template needs: regular
 * files and directories, names under 100 bytes, written and read as a stream so that memory stays at
 * one chunk whatever the archive's size.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';

const block = 512;

/** Writes `directory`'s files and subdirectories (in name order, paths relative to it) to `file`, gzip'd. */
export async function writeTarGz(directory: string, file: string): Promise<void> {
  async function* entries(relative: string): AsyncGenerator<Buffer> {
    for (const entry of fs
      .readdirSync(path.join(directory, relative), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      const full = path.join(directory, name);
      if (entry.isDirectory()) {
        yield header(`${name}/`, 0, '5', fs.statSync(full).mode);
        yield* entries(name);
      } else if (entry.isFile()) {
        const size = fs.statSync(full).size;
        yield header(name, size, '0', fs.statSync(full).mode);
        for await (const chunk of fs.createReadStream(full)) yield chunk as Buffer;
        yield Buffer.alloc((block - (size % block)) % block);
      } else throw new Error(`${full} is neither a file nor a directory`);
    }
  }
  async function* archive(): AsyncGenerator<Buffer> {
    yield* entries('');
    yield Buffer.alloc(2 * block);
  }
  await pipeline(archive, zlib.createGzip(), fs.createWriteStream(file));
}

function header(name: string, size: number, type: '0' | '5', mode: number): Buffer {
  if (Buffer.byteLength(name) >= 100) throw new Error(`${name}: names of 100 bytes or more are not supported`);
  const bytes = Buffer.alloc(block);
  bytes.write(name, 0);
  bytes.write(`${(mode & 0o777).toString(8).padStart(7, '0')}\0`, 100);
  bytes.write('0000000\0', 108); // uid
  bytes.write('0000000\0', 116); // gid
  bytes.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  bytes.write('00000000000\0', 136); // mtime: the epoch, so the same tree gives the same archive
  bytes.write(type, 156);
  bytes.write('ustar\x0000', 257);
  // The checksum is the byte sum with its own field read as spaces.
  bytes.write('        ', 148);
  const sum = bytes.reduce((total, byte) => total + byte, 0);
  bytes.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return bytes;
}

export interface TarEntry {
  /** Relative path, checked not to leave the destination. */
  name: string;
  type: 'file' | 'directory';
  mode: number;
}

/**
 * Reads a gzip'd tar archive chunk by chunk: `onEntry` for each entry, then `onData` with the
 * pieces of a file's content, in order. Throws on entries other than files and directories, and on
 * paths that would leave the directory they are unpacked into.
 */
export async function readTarGz(
  file: string,
  onEntry: (entry: TarEntry, size: number) => void,
  onData: (piece: Buffer) => void,
): Promise<void> {
  const headerBytes = Buffer.alloc(block);
  let filled = 0;
  // Bytes of the current entry's content still to come, then of its padding to the next block.
  let content = 0;
  let padding = 0;
  let ended = false;
  const consume = (chunk: Buffer) => {
    let offset = 0;
    while (offset < chunk.length && !ended) {
      if (content > 0) {
        const piece = chunk.subarray(offset, offset + content);
        onData(piece);
        content -= piece.length;
        offset += piece.length;
      } else if (padding > 0) {
        const skipped = Math.min(padding, chunk.length - offset);
        padding -= skipped;
        offset += skipped;
      } else {
        const taken = chunk.copy(headerBytes, filled, offset, offset + block - filled);
        filled += taken;
        offset += taken;
        if (filled < block) continue;
        filled = 0;
        if (headerBytes.every((byte) => byte === 0)) {
          ended = true;
          continue;
        }
        const parsed = parseHeader(headerBytes);
        onEntry(parsed.entry, parsed.size);
        content = parsed.size;
        padding = (block - (parsed.size % block)) % block;
      }
    }
  };
  // An error thrown in pipeline's last stage reaches its caller as an abort: kept and thrown as itself.
  let problem: unknown = null;
  try {
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), async (source: AsyncIterable<Buffer>) => {
      try {
        for await (const chunk of source) consume(chunk);
      } catch (error) {
        problem = error;
        throw error;
      }
    });
  } catch (error) {
    throw problem ?? error;
  }
}

function parseHeader(bytes: Buffer): { entry: TarEntry; size: number } {
  const prefix = field(bytes, 345, 155);
  const raw = prefix ? `${prefix}/${field(bytes, 0, 100)}` : field(bytes, 0, 100);
  const name = path.normalize(raw.replace(/^\/+/, ''));
  if (name === '.' || name === '..' || name.startsWith(`..${path.sep}`) || path.isAbsolute(name))
    throw new Error(`unsafe path in the archive: ${raw}`);
  const typeFlag = String.fromCharCode(bytes[156] ?? 0);
  const type = typeFlag === '5' ? 'directory' : typeFlag === '0' || typeFlag === '\0' ? 'file' : null;
  if (!type)
    throw new Error(
      `the archive holds an entry of type "${typeFlag}" (${raw}): only files and directories are expected`,
    );
  return {
    entry: { name, type, mode: Number.parseInt(field(bytes, 100, 8) || '600', 8) & 0o777 },
    size: Number.parseInt(field(bytes, 124, 12) || '0', 8),
  };
}

/** A NUL-terminated ASCII field of a tar header. */
function field(bytes: Buffer, start: number, length: number): string {
  const raw = bytes.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw
    .subarray(0, end === -1 ? length : end)
    .toString('utf8')
    .trim();
}
