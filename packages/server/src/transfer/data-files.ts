import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DocqaError } from '@docqa/plugin-api';
import { fileDataPiece, type ArchiveWriter } from './archive-format.js';

/** Where an import stages the files it restores, inside DOCQA_DATA_DIR so moving them is a rename. */
export const stagingPrefix = '.docqa-import-';

/**
 * What of DOCQA_DATA_DIR is data to carry: everything (uploaded bytes under blobs/, connector and
 * integration state under sources/, models under models/) except the embedded database's own
 * files, writes still in progress (an upload being received, a model being downloaded, a state file
 * being replaced) and an import's staging area.
 */
export function isCarried(relative: string, options: { withoutModels: boolean }): boolean {
  const [top] = relative.split('/');
  if (top === 'pgdata' || top?.startsWith(stagingPrefix)) return false;
  if (options.withoutModels && top === 'models') return false;
  if (relative === 'blobs/tmp' || relative.startsWith('blobs/tmp/')) return false;
  return !/\.(part|part\.json|tmp)$/.test(relative);
}

export interface FileTotals {
  files: number;
  bytes: number;
}

/** Writes the data directory's carried entries, depth first in name order, into the archive. */
export async function writeDataFiles(
  writer: ArchiveWriter,
  dataDir: string,
  options: { withoutModels: boolean },
): Promise<FileTotals> {
  const totals: FileTotals = { files: 0, bytes: 0 };
  if (!fs.existsSync(dataDir)) return totals;
  const visit = async (relativeDir: string): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(dataDir, relativeDir), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const relative = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (!isCarried(relative, options)) continue;
      const absolute = path.join(dataDir, relative);
      if (entry.isDirectory()) {
        const { mode } = await fs.promises.stat(absolute);
        await writer.line({ dir: relative, mode: mode & 0o7777 });
        await visit(relative);
      } else if (entry.isSymbolicLink()) {
        await writer.line({ symlink: relative, target: await fs.promises.readlink(absolute) });
      } else if (entry.isFile()) {
        totals.bytes += await writeFile(writer, absolute, relative);
        totals.files += 1;
      }
      // Sockets and pipes are not data.
    }
  };
  await visit('');
  return totals;
}

async function writeFile(writer: ArchiveWriter, absolute: string, relative: string): Promise<number> {
  const { size, mode } = await fs.promises.stat(absolute);
  await writer.line({ file: relative, size, mode: mode & 0o7777 });
  const hash = crypto.createHash('sha256');
  let written = 0;
  for await (const piece of fs.createReadStream(absolute, { highWaterMark: fileDataPiece }) as AsyncIterable<Buffer>) {
    hash.update(piece);
    written += piece.length;
    await writer.line(piece.toString('base64'));
  }
  // The size in the record is what import checks against; a file that changed meanwhile would lie.
  if (written !== size)
    throw new DocqaError(
      'conflict',
      `${relative} changed while it was being exported (${size} bytes, then ` +
        `${written}); export again with DocQA stopped.`,
    );
  await writer.line({ file_end: relative, sha256: hash.digest('hex') });
  return written;
}

interface StagedEntry {
  kind: 'dir' | 'file' | 'symlink';
  path: string;
  mode: number;
  target?: string;
  sha256?: string;
  size?: number;
}

/**
 * Receives the archive's data directory entries into a staging directory, then, once the database
 * part is ready to commit, moves them into place. A file already in place with the same bytes
 * (the same DOCQA_DATA_DIR kept for the new database) is left as it is; one with other bytes is a
 * conflict, reported before anything moves.
 */
export class DataFileRestore {
  readonly #dataDir: string;
  readonly #staging: string;
  readonly #entries: StagedEntry[] = [];
  #open: { entry: StagedEntry; out: fs.WriteStream; hash: crypto.Hash; size: number } | null = null;
  readonly #created: string[] = [];
  totals: FileTotals = { files: 0, bytes: 0 };

  constructor(dataDir: string) {
    this.#dataDir = dataDir;
    this.#staging = path.join(dataDir, `${stagingPrefix}${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  }

  #stagedPath(relative: string): string {
    const parts = relative.split('/');
    if (
      relative.length === 0 ||
      path.isAbsolute(relative) ||
      parts.some((part) => part === '' || part === '.' || part === '..') ||
      relative.includes('\\') ||
      relative.includes('\0')
    ) {
      throw new DocqaError(
        'validation_failed',
        `The archive is damaged or not DocQA's: it names the file "${relative}", ` +
          'outside the data directory. Nothing was imported from it.',
      );
    }
    return path.join(this.#staging, relative);
  }

  async dir(relative: string, mode: number): Promise<void> {
    await fs.promises.mkdir(this.#stagedPath(relative), { recursive: true });
    this.#entries.push({ kind: 'dir', path: relative, mode });
  }

  async symlink(relative: string, target: string): Promise<void> {
    const staged = this.#stagedPath(relative);
    await fs.promises.mkdir(path.dirname(staged), { recursive: true });
    await fs.promises.symlink(target, staged);
    this.#entries.push({ kind: 'symlink', path: relative, mode: 0, target });
  }

  async startFile(relative: string, size: number, mode: number): Promise<void> {
    if (this.#open) throw this.#damaged(`file ${this.#open.entry.path} has no end`);
    const staged = this.#stagedPath(relative);
    await fs.promises.mkdir(path.dirname(staged), { recursive: true });
    const entry: StagedEntry = { kind: 'file', path: relative, mode, size };
    this.#open = {
      entry,
      out: fs.createWriteStream(staged, { flags: 'wx', mode: 0o600 }),
      hash: crypto.createHash('sha256'),
      size: 0,
    };
  }

  async data(bytes: Buffer): Promise<void> {
    const open = this.#open;
    if (!open) throw this.#damaged('file data outside a file');
    open.hash.update(bytes);
    open.size += bytes.length;
    if (!open.out.write(bytes))
      await new Promise<void>((resolve, reject) => open.out.once('drain', resolve).once('error', reject));
  }

  async endFile(relative: string, sha256: string): Promise<void> {
    const open = this.#open;
    if (!open || open.entry.path !== relative)
      throw this.#damaged(`the end of file ${relative} does not close the file being read`);
    this.#open = null;
    await new Promise<void>((resolve, reject) =>
      open.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    const digest = open.hash.digest('hex');
    if (open.size !== open.entry.size || digest !== sha256)
      throw this.#damaged(`file ${relative} does not have the size or content the archive recorded`);
    open.entry.sha256 = digest;
    this.#entries.push(open.entry);
    this.totals.files += 1;
    this.totals.bytes += open.size;
  }

  #damaged(detail: string): DocqaError {
    return new DocqaError(
      'validation_failed',
      `The archive is damaged or incomplete: ${detail}. Nothing was imported from it.`,
    );
  }

  /** Paths that exist in DOCQA_DATA_DIR with other content than the archive's. */
  async conflicts(): Promise<string[]> {
    const found: string[] = [];
    for (const entry of this.#entries) {
      const target = path.join(this.#dataDir, entry.path);
      const existing = await fs.promises.lstat(target).catch(() => null);
      if (!existing) continue;
      if (
        entry.kind === 'dir'
          ? !existing.isDirectory()
          : entry.kind === 'symlink'
            ? !existing.isSymbolicLink() || (await fs.promises.readlink(target)) !== entry.target
            : !existing.isFile() || existing.size !== entry.size || (await sha256Of(target)) !== entry.sha256
      ) {
        found.push(entry.path);
      }
    }
    return found;
  }

  /** Moves what is not in place yet into DOCQA_DATA_DIR (directories first, as they came). */
  async place(): Promise<void> {
    for (const entry of this.#entries) {
      const target = path.join(this.#dataDir, entry.path);
      if (entry.kind === 'dir') {
        if (!fs.existsSync(target)) {
          await fs.promises.mkdir(target, { recursive: true, mode: entry.mode });
          this.#created.push(target);
        }
        continue;
      }
      if (await fs.promises.lstat(target).catch(() => null)) continue;
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.rename(path.join(this.#staging, entry.path), target);
      this.#created.push(target);
      if (entry.kind === 'file') await fs.promises.chmod(target, entry.mode);
    }
  }

  /** Takes back what place() moved in: the database part did not commit. */
  async unplace(): Promise<void> {
    for (const target of [...this.#created].reverse())
      await fs.promises
        .rm(target, { recursive: false, force: true })
        .catch(() => fs.promises.rmdir(target).catch(() => undefined));
    this.#created.length = 0;
  }

  /** Removes the staging directory, whatever happened. */
  async cleanUp(): Promise<void> {
    this.#open?.out.destroy();
    await fs.promises.rm(this.#staging, { recursive: true, force: true });
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const piece of fs.createReadStream(file) as AsyncIterable<Buffer>) hash.update(piece);
  return hash.digest('hex');
}
