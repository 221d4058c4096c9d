import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import type { ConnectorEvent, Logger } from '@docqa/plugin-api';
import { absolutePathOf } from './allowed-root.js';
import type { DirectorySourceConfig } from './config.js';
import { fileDocument, hashFile } from './file-document.js';
import {
  formatCursor,
  parseCursor,
  readStoredState,
  writeStateAtomically,
  type FileState,
  type StoredState,
} from './state-file.js';
import { pathFilters, walkFiles } from './walk.js';

/** Everything one sync needs: the source (already checked by open()) and the plugin's options. */
export interface DirectorySyncSettings {
  /** Real path of the source directory, inside an allowed root. */
  root: string;
  config: DirectorySourceConfig;
  sourceId: string;
  stateFile: string;
  maxFileBytes: number | undefined;
  logger: Logger;
}

/** How often a sync reports progress, in files examined. */
export const progressEveryFiles = 200;

/** A new file whose content matches a file known before: yielded once the walk knows what is gone. */
interface PossibleMove {
  relativePath: string;
  state: FileState;
}

/*
 * What a sync yields, given the cursor:
 *  - cursor matching the state file: incremental. Upserts for new files and files whose content
 *    changed; deletes for files the state knew that are gone (deleted, excluded now, too large now).
 *  - null, or stale (the state file is missing or is not the version the cursor names): full. Upserts
 *    for every file, and deletes for files the state file (if any) knew that are gone. Files the
 *    kernel indexed but no state file remembers cannot be named; see README "State".
 *
 * Change detection: size and mtime equal to the state's → unchanged, without reading the file.
 * Otherwise the file is hashed; the same hash as before (a `touch`, a copy with a new mtime) is
 * **not** announced: the bytes are what DocQA indexes, and re-announcing every file after a
 * `git checkout` or a restore would cost a job each for nothing. The state records the new mtime,
 * so the file is not hashed again next time.
 */
export async function* syncDirectory(
  settings: DirectorySyncSettings,
  cursor: string | null,
  signal: AbortSignal,
): AsyncGenerator<ConnectorEvent> {
  signal.throwIfAborted();
  const { root, logger } = settings;
  // Parsed first: a malformed cursor is an error, not a reason to resync everything quietly.
  const requested = cursor === null ? null : parseCursor(cursor);
  const stored = await readStoredState(settings.stateFile, logger);
  const sameRoot = stored !== null && stored.root === root;
  const incremental =
    requested !== null &&
    sameRoot &&
    requested.generation === stored.generation &&
    requested.stateHash === stored.fileHash;
  if (requested !== null && !incremental)
    logger.info(
      { sourceId: settings.sourceId, cursor },
      'sync cursor is stale (state lost or replaced); doing a full sync',
    );

  // Files the previous sync knew; each one seen is removed, so what remains at the end is gone.
  const previous = stored?.files ?? new Map<string, FileState>();
  const previousHashes = new Set<string>(Array.from(previous.values(), (entry) => entry.hash));
  const next = new Map<string, FileState>();
  const possibleMoves: PossibleMove[] = [];
  let stateChanged = !incremental;
  let examined = 0;
  let upserts = 0;

  for await (const file of walkFiles(
    root,
    pathFilters(settings.config.include, settings.config.exclude),
    signal,
    logger,
  )) {
    signal.throwIfAborted();
    examined += 1;
    if (examined % progressEveryFiles === 0) yield { type: 'progress', done: examined };
    const before = previous.get(file.relativePath);
    const state = await currentState(settings, file.relativePath, sameRoot ? before : undefined, signal);
    // Skipped (vanished, too large, unreadable): left in `previous`, so a known file becomes a delete.
    if (state === null) continue;
    next.set(file.relativePath, state);
    previous.delete(file.relativePath);
    if (incremental && before?.hash === state.hash) {
      // Unchanged, or touched with the same content (see above): not announced, only remembered.
      if (before.size !== state.size || before.mtimeMs !== state.mtimeMs) stateChanged = true;
      continue;
    }
    stateChanged = true;
    if (!before && previousHashes.has(state.hash)) {
      possibleMoves.push({ relativePath: file.relativePath, state });
      continue;
    }
    upserts += 1;
    yield { type: 'upsert', document: fileDocument(root, file.relativePath, state) };
  }

  // Now `previous` holds exactly the files that are gone: pair them with new files of equal content.
  const goneByHash = new Map<string, string[]>();
  for (const [relativePath, entry] of previous) {
    const paths = goneByHash.get(entry.hash);
    if (paths) paths.push(relativePath);
    else goneByHash.set(entry.hash, [relativePath]);
  }
  let deletes = 0;
  for (const move of possibleMoves) {
    signal.throwIfAborted();
    const movedFrom = goneByHash.get(move.state.hash)?.shift();
    upserts += 1;
    yield { type: 'upsert', document: fileDocument(root, move.relativePath, move.state, movedFrom) };
    if (movedFrom !== undefined) {
      // Right after the upsert that names it: a pipeline handling events in order has moved the
      // old document's chunks by the time it sees this delete.
      previous.delete(movedFrom);
      deletes += 1;
      signal.throwIfAborted();
      yield { type: 'delete', externalId: movedFrom };
    }
  }
  for (const relativePath of previous.keys()) {
    signal.throwIfAborted();
    deletes += 1;
    yield { type: 'delete', externalId: relativePath };
  }
  if (deletes > 0) stateChanged = true;

  signal.throwIfAborted();
  const nextCursor = stateChanged ? await saveState(settings, stored, next) : cursor!;
  logger.info(
    { sourceId: settings.sourceId, root, examined, upserts, deletes, incremental, cursor: nextCursor },
    'directory synced',
  );
  // Last, after the state it names is on disk: the kernel stores it once everything before is durable.
  yield { type: 'checkpoint', cursor: nextCursor };
}

/**
 * The file's size, mtime and hash now, or null when it is to be skipped. Hashes only when size or
 * mtime differ from `known` (or nothing is known).
 */
async function currentState(
  settings: DirectorySyncSettings,
  relativePath: string,
  known: FileState | undefined,
  signal: AbortSignal,
): Promise<FileState | null> {
  const { root, logger } = settings;
  let stats: Stats;
  try {
    stats = await fs.lstat(absolutePathOf(root, relativePath));
  } catch {
    return null; // vanished between listing and now
  }
  if (!stats.isFile()) return null; // replaced by a link or a directory since it was listed
  if (settings.maxFileBytes !== undefined && stats.size > settings.maxFileBytes) {
    logger.warn(
      { sourceId: settings.sourceId, path: relativePath, size: stats.size, maxFileBytes: settings.maxFileBytes },
      'file skipped: larger than maxFileBytes',
    );
    return null;
  }
  if (known && known.size === stats.size && known.mtimeMs === stats.mtimeMs) return known;
  try {
    const hash = await hashFile(root, relativePath, signal);
    return hash === null ? null : { size: stats.size, mtimeMs: stats.mtimeMs, hash };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    logger.warn(
      { sourceId: settings.sourceId, path: relativePath, error: (error as Error).message },
      'file skipped: cannot be read',
    );
    return null;
  }
}

async function saveState(
  settings: DirectorySyncSettings,
  stored: StoredState | null,
  files: Map<string, FileState>,
): Promise<string> {
  const generation = (stored?.generation ?? 0) + 1;
  const stateHash = await writeStateAtomically(settings.stateFile, { generation, root: settings.root, files });
  return formatCursor(generation, stateHash);
}
