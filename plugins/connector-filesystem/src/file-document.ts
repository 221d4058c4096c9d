import crypto from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { DocqaError, type ConnectorDocument } from '@docqa/plugin-api';
import { realPathInsideRoot } from './allowed-root.js';
import type { FileState } from './state-file.js';

/** Read size: large enough for few system calls, small enough that a 500 MB file costs 64 KiB. */
const chunkBytes = 64 * 1024;

/**
 * Opens a file below the root for reading, or returns null when it vanished, is no longer a regular
 * file, or now resolves elsewhere. O_NOFOLLOW refuses a last path component that became a link
 * after the real-path check; the check itself covers the directories above it.
 */
async function openFileInsideRoot(root: string, relativePath: string): Promise<fs.FileHandle | null> {
  const realPath = await realPathInsideRoot(root, relativePath);
  if (realPath === null) return null;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(realPath, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (['ENOENT', 'ELOOP', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    return null;
  }
  return handle;
}

/** Reads an open file chunk by chunk, checking the signal between chunks; closes it in every case. */
async function* readChunks(handle: fs.FileHandle, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  try {
    for (;;) {
      signal?.throwIfAborted();
      // A fresh buffer per chunk: the consumer owns what it receives and may keep it.
      const buffer = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * SHA-256 of a file's content, hex, streamed; null when the file vanished between listing and
 * reading (the caller skips it). Other read errors (permissions) are thrown for the caller to log.
 */
export async function hashFile(root: string, relativePath: string, signal: AbortSignal): Promise<string | null> {
  const handle = await openFileInsideRoot(root, relativePath);
  if (handle === null) return null;
  const hash = crypto.createHash('sha256');
  for await (const chunk of readChunks(handle, signal)) hash.update(chunk);
  return hash.digest('hex');
}

/** The document DocQA indexes for one file; its bytes are read only when the pipeline opens it. */
export function fileDocument(
  root: string,
  relativePath: string,
  state: FileState,
  movedFrom?: string,
): ConnectorDocument {
  return {
    externalId: relativePath,
    path: relativePath,
    title: relativePath.slice(relativePath.lastIndexOf('/') + 1),
    size: state.size,
    modifiedAt: new Date(state.mtimeMs),
    contentHash: state.hash,
    ...(movedFrom === undefined ? {} : { movedFrom }),
    async open(signal?: AbortSignal) {
      signal?.throwIfAborted();
      // Checked again now, not trusted from the sync: the pipeline may open the file much later.
      if ((await realPathInsideRoot(root, relativePath)) === null) throw fileGone(root, relativePath);
      return streamFile(root, relativePath, signal);
    },
  };
}

/** Opens the file on the first read, so that a stream nobody reads holds no file handle. */
async function* streamFile(
  root: string,
  relativePath: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const handle = await openFileInsideRoot(root, relativePath);
  if (handle === null) throw fileGone(root, relativePath);
  yield* readChunks(handle, signal);
}

function fileGone(root: string, relativePath: string): DocqaError {
  return new DocqaError(
    'not_found',
    `File '${relativePath}' no longer exists in directory '${root}' (or is no longer a regular file there)`,
  );
}
