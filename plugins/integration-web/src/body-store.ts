import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A fetched body, kept until the pipeline reads it through the document's open(). */
export interface StoredBody {
  size: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  /** The first bytes (the whole body when it stayed in memory): enough to find an HTML page's links. */
  head: Uint8Array;
  open(signal?: AbortSignal): AsyncIterable<Uint8Array>;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/**
 * Holds the bodies of one source's syncs. A body stays in memory up to `maxInMemoryBytes`; a larger
 * one is streamed to a file in `directory`, so memory stays bounded whatever the site serves. The
 * files live until the source is closed (the pipeline may read a document any time before that).
 */
export class BodyStore {
  private fileCount = 0;

  constructor(
    private readonly directory: string,
    private readonly maxInMemoryBytes: number,
    private readonly maxBytes: number,
  ) {}

  async store(body: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<StoredBody> {
    const hash = crypto.createHash('sha256');
    const chunks: Uint8Array[] = [];
    let size = 0;
    let file: { path: string; handle: fs.promises.FileHandle } | undefined;
    try {
      for await (const chunk of body) {
        signal.throwIfAborted();
        size += chunk.byteLength;
        if (size > this.maxBytes) throw new BodyTooLargeError(this.maxBytes);
        hash.update(chunk);
        if (file) {
          await file.handle.write(chunk);
        } else if (size > this.maxInMemoryBytes) {
          file = await this.createFile();
          for (const buffered of chunks) await file.handle.write(buffered);
          await file.handle.write(chunk);
        } else {
          chunks.push(chunk);
        }
      }
    } catch (error) {
      if (file) {
        await file.handle.close();
        await fs.promises.rm(file.path, { force: true });
      }
      throw error;
    }
    if (file) await file.handle.close();
    const head = Buffer.concat(chunks);
    const sha256 = hash.digest('hex');
    if (!file) return { size, sha256, head, open: () => fromMemory(head) };
    const filePath = file.path;
    return {
      size,
      sha256,
      head,
      open: (openSignal) => fs.createReadStream(filePath, openSignal ? { signal: openSignal } : {}),
    };
  }

  /** Removes every body file; documents of the closed source can no longer be read from disk. */
  async clear(): Promise<void> {
    await fs.promises.rm(this.directory, { recursive: true, force: true });
  }

  private async createFile(): Promise<{ path: string; handle: fs.promises.FileHandle }> {
    await fs.promises.mkdir(this.directory, { recursive: true, mode: 0o700 });
    this.fileCount += 1;
    const filePath = path.join(this.directory, `body-${this.fileCount}`);
    return { path: filePath, handle: await fs.promises.open(filePath, 'w', 0o600) };
  }
}

async function* fromMemory(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
