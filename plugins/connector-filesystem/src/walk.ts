import type { Dir } from 'node:fs';
import fs from 'node:fs/promises';
import picomatch from 'picomatch';
import { DocqaError, type Logger } from '@docqa/plugin-api';
import { absolutePathOf, realPathInsideRoot } from './allowed-root.js';

/** Files a write into the source is filling (storage.ts): never announced, whatever the globs say. */
export const writeInProgress = /^\.docqa-write-[0-9a-f-]{36}\.tmp$/;

/** Decides, on paths relative to the source root with POSIX separators, what a sync looks at. */
export interface PathFilters {
  includesFile(relativePath: string): boolean;
  /** A directory an exclude glob matches is not entered at all (as .gitignore does). */
  excludesDirectory(relativePath: string): boolean;
}

export function pathFilters(include: readonly string[], exclude: readonly string[]): PathFilters {
  // dot: true, so that `**/*` also matches `.env` once a user drops the default hidden-file
  // exclusion: what is hidden is decided by `exclude` alone, not by a matcher default.
  const options = { dot: true };
  const included = picomatch([...include], options);
  const excluded = exclude.length > 0 ? picomatch([...exclude], options) : () => false;
  return {
    includesFile: (relativePath) => included(relativePath) && !excluded(relativePath),
    excludesDirectory: (relativePath) => excluded(relativePath),
  };
}

export interface WalkedFile {
  /** Relative to the root, POSIX separators: the document's externalId and path. */
  relativePath: string;
  name: string;
}

/**
 * Yields the regular files below `root` that the filters include, one at a time.
 *
 * Iterative, not recursive, and bounded: one directory handle is open at a time (fs.opendir reads
 * entries in small batches), and only the relative paths of directories still to visit are kept.
 * A directory of 100k files costs no more memory than one of ten.
 *
 * Symbolic links are skipped, never followed, whatever they point to: deciding whether a link
 * target is harmless would mean resolving it, and a link can be changed between that check and the
 * read. Sockets, FIFOs and devices are skipped too (reading a FIFO would block the sync).
 */
export async function* walkFiles(
  root: string,
  filters: PathFilters,
  signal: AbortSignal,
  logger: Logger,
): AsyncGenerator<WalkedFile> {
  const directoriesToVisit: string[] = [''];
  while (directoriesToVisit.length > 0) {
    signal.throwIfAborted();
    const directory = directoriesToVisit.pop()!;
    const entries = await openDirectory(root, directory, logger);
    if (entries === null) continue;
    // The Dir closes itself when this loop ends, throws, or the consumer stops the generator.
    for await (const entry of entries) {
      signal.throwIfAborted();
      const relativePath = directory === '' ? entry.name : `${directory}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        logger.debug({ root, path: relativePath }, 'symbolic link skipped: links are never followed');
      } else if (entry.isDirectory()) {
        if (!filters.excludesDirectory(relativePath)) directoriesToVisit.push(relativePath);
      } else if (entry.isFile() && filters.includesFile(relativePath) && !writeInProgress.test(entry.name)) {
        yield { relativePath, name: entry.name };
      }
    }
  }
}

async function openDirectory(root: string, directory: string, logger: Logger): Promise<Dir | null> {
  // Re-checked right before opening: the directory was listed as a real directory, but it may have
  // been replaced by a link (to anywhere) since; opendir would follow that link.
  if (directory !== '' && (await realPathInsideRoot(root, directory)) === null) {
    logger.warn({ root, path: directory }, 'directory skipped: it vanished or now resolves outside its listed place');
    return null;
  }
  try {
    return await fs.opendir(absolutePathOf(root, directory), { bufferSize: 64 });
  } catch (error) {
    if (directory === '') {
      throw new DocqaError('unavailable', `Cannot read directory '${root}': ${(error as Error).message}`, {
        cause: error,
      });
    }
    // A subdirectory deleted or made unreadable mid-sync: its files count as gone, the rest goes on.
    logger.warn({ root, path: directory, error: (error as Error).message }, 'directory skipped: cannot be read');
    return null;
  }
}
