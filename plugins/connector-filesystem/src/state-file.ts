import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DocqaError, type Logger } from '@docqa/plugin-api';

/*
 * Why a state file: to tell what changed, a sync needs what the previous one saw (every file's
 * size, mtime and hash). A directory can hold 100k files, far too much for the cursor string the
 * kernel stores, so the state lives in a file of its own, one per source, and the cursor only
 * names the version of that file it belongs to: `<generation>:<sha256 of the state file>`.
 *
 * A cursor that does not match the state file (lost, replaced by a restore, or written by a sync
 * whose checkpoint the kernel never stored) is stale; the sync then re-announces every file, and
 * still deletes what the state file knew that is gone (see sync.ts).
 *
 * Format, compact JSON: {"version":1,"generation":7,"root":"/real/root","files":{"a/b.md":[size,mtimeMs,"sha256"]}}
 */

export interface FileState {
  size: number;
  mtimeMs: number;
  /** SHA-256 of the content, hex. */
  hash: string;
}

export interface StoredState {
  generation: number;
  /** The real root directory the paths are relative to: a source whose path changed starts afresh. */
  root: string;
  files: Map<string, FileState>;
  /** SHA-256 of the state file's bytes, the second half of the cursor. */
  fileHash: string;
}

export interface SyncCursor {
  generation: number;
  stateHash: string;
}

const cursorPattern = /^(\d{1,15}):([0-9a-f]{64})$/;

export function formatCursor(generation: number, stateHash: string): string {
  return `${generation}:${stateHash}`;
}

export function parseCursor(cursor: string): SyncCursor {
  const match = cursorPattern.exec(cursor);
  if (!match) {
    throw new DocqaError(
      'validation_failed',
      `Sync cursor '${cursor}' is not '<generation>:<sha256>'; it must come ` +
        'from a checkpoint of the filesystem connector',
    );
  }
  return { generation: Number(match[1]), stateHash: match[2]! };
}

/** One file per source; ids that are not plain names are hashed so they never form a path. */
export function stateFilePath(stateDir: string, sourceId: string): string {
  const name = /^[A-Za-z0-9_-]{1,100}$/.test(sourceId)
    ? sourceId
    : crypto.createHash('sha256').update(sourceId).digest('hex');
  return path.join(stateDir, `${name}.json`);
}

/** The stored state, or null when there is none or it cannot be used (then logged: a full sync follows). */
export async function readStoredState(file: string, logger: Logger): Promise<StoredState | null> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      logger.warn({ file, error: (error as Error).message }, 'sync state unreadable; doing a full sync');
    return null;
  }
  try {
    return { ...decodeState(JSON.parse(bytes.toString('utf8'))), fileHash: sha256(bytes) };
  } catch (error) {
    logger.warn({ file, error: (error as Error).message }, 'sync state malformed; doing a full sync');
    return null;
  }
}

function decodeState(value: unknown): Omit<StoredState, 'fileHash'> {
  const state = value as { version?: unknown; generation?: unknown; root?: unknown; files?: unknown };
  if (
    state?.version !== 1 ||
    !Number.isSafeInteger(state.generation) ||
    typeof state.root !== 'string' ||
    typeof state.files !== 'object' ||
    state.files === null
  ) {
    throw new Error('not a version 1 state');
  }
  const files = new Map<string, FileState>();
  for (const [relativePath, entry] of Object.entries(state.files)) {
    const [size, mtimeMs, hash] = Array.isArray(entry) ? (entry as unknown[]) : [];
    if (typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof hash !== 'string')
      throw new Error(`bad entry for '${relativePath}'`);
    files.set(relativePath, { size, mtimeMs, hash });
  }
  return { generation: state.generation as number, root: state.root, files };
}

/**
 * Replaces the state file atomically: written to a temporary file in the same directory, flushed
 * to disk, then renamed over the old one. A crash or a full disk leaves the old state or the new
 * one, never half of one. Written in batches rather than one JSON.stringify of the whole state.
 * Returns the SHA-256 of the bytes written.
 */
export async function writeStateAtomically(
  file: string,
  state: { generation: number; root: string; files: ReadonlyMap<string, FileState> },
): Promise<string> {
  const temporary = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
  let handle: fs.FileHandle | undefined;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    handle = await fs.open(temporary, 'wx', 0o600);
    const hash = await writeStateTo(handle, state);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temporary, file);
    return hash;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temporary, { force: true });
    throw new DocqaError(
      'unavailable',
      `Cannot write the filesystem connector's sync state '${file}': ${(error as Error).message}`,
      { cause: error },
    );
  }
}

async function writeStateTo(
  handle: fs.FileHandle,
  state: { generation: number; root: string; files: ReadonlyMap<string, FileState> },
): Promise<string> {
  const hash = crypto.createHash('sha256');
  const write = async (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    hash.update(bytes);
    for (let offset = 0; offset < bytes.length;) offset += (await handle.write(bytes, offset)).bytesWritten;
  };
  await write(`{"version":1,"generation":${state.generation},"root":${JSON.stringify(state.root)},"files":{`);
  let batch: string[] = [];
  let separator = '';
  for (const [relativePath, entry] of state.files) {
    batch.push(`${JSON.stringify(relativePath)}:[${entry.size},${entry.mtimeMs},"${entry.hash}"]`);
    if (batch.length === 1000) {
      await write(separator + batch.join(','));
      separator = ',';
      batch = [];
    }
  }
  if (batch.length > 0) await write(separator + batch.join(','));
  await write('}}\n');
  return hash.digest('hex');
}

function sha256(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}
