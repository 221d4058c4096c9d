import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DocqaError } from '@docqa/plugin-api';

export interface StagedBlob {
  /** Where the bytes wait until they are committed or discarded. */
  tempPath: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * Content-addressed file storage under `<dataDir>/blobs`: a blob's name is its SHA-256, so the same
 * bytes are stored once however often they are uploaded. Uploads stream into a temporary file while
 * they are hashed and counted, and only a complete, accepted upload is moved into place.
 */
export class BlobStore {
  readonly #root: string;
  readonly #tmp: string;

  constructor(dataDir: string) {
    this.#root = path.join(dataDir, 'blobs');
    this.#tmp = path.join(this.#root, 'tmp');
    fs.mkdirSync(this.#tmp, { recursive: true });
  }

  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new DocqaError('internal', `Not a content hash: ${sha256}`);
    return path.join(this.#root, 'sha256', sha256.slice(0, 2), sha256);
  }

  /**
   * Streams `source` to a temporary file. `checkSize(bytesSoFar)` runs as bytes arrive and may
   * throw (size or storage limits): the stream stops and the partial file is removed.
   */
  async stage(source: Readable, checkSize: (bytesSoFar: number) => void): Promise<StagedBlob> {
    const tempPath = path.join(this.#tmp, crypto.randomUUID());
    const hash = crypto.createHash('sha256');
    let sizeBytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sizeBytes += chunk.length;
        try {
          checkSize(sizeBytes);
        } catch (error) {
          callback(error as Error);
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, fs.createWriteStream(tempPath, { flags: 'wx' }));
    } catch (error) {
      await fs.promises.rm(tempPath, { force: true });
      throw error;
    }
    return { tempPath, sizeBytes, sha256: hash.digest('hex') };
  }

  /** Moves a staged blob into place (or drops it when those bytes are stored already). */
  async commit(staged: StagedBlob): Promise<void> {
    const target = this.pathOf(staged.sha256);
    if (fs.existsSync(target)) {
      await fs.promises.rm(staged.tempPath, { force: true });
      return;
    }
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(staged.tempPath, target);
  }

  async discard(staged: StagedBlob): Promise<void> {
    await fs.promises.rm(staged.tempPath, { force: true });
  }

  async remove(sha256: string): Promise<void> {
    await fs.promises.rm(this.pathOf(sha256), { force: true });
  }

  /** Temporary files left by a crash mid-upload; nothing refers to them. */
  async sweepStaging(olderThanMs = 60 * 60 * 1000): Promise<number> {
    let removed = 0;
    for (const name of await fs.promises.readdir(this.#tmp)) {
      const file = path.join(this.#tmp, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
        await fs.promises.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
