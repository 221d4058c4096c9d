import path from 'node:path';
import picomatch from 'picomatch';
import { DocqaError, type ConnectorDocument, type ConnectorEvent, type Logger } from '@docqa/plugin-api';
import type { GitSourceConfig } from './config.js';
import { mediaTypeOf } from './media-types.js';
import { diffTrees } from './tree-diff.js';
import type { WorkingClone } from './working-clone.js';

export interface GitSyncSettings {
  config: GitSourceConfig;
  clone: WorkingClone;
  sourceId: string;
  logger: Logger;
}

const progressEveryFiles = 100;
const commitOid = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * One sync. The cursor is the commit oid of the previous sync. When the working clone still has
 * that commit (also after a force push: the clone keeps it), the two trees are diffed and only
 * changes are yielded, deletes included. When it does not (the state directory was lost), this is a
 * full re-sync: every file is upserted, and no deletes can be emitted because nothing tells what the
 * old commit held.
 */
export async function* syncRepository(
  settings: GitSyncSettings,
  cursor: string | null,
  signal: AbortSignal,
): AsyncGenerator<ConnectorEvent> {
  signal.throwIfAborted();
  const { config, clone, logger, sourceId } = settings;
  if (cursor !== null && !commitOid.test(cursor)) {
    throw new DocqaError(
      'validation_failed',
      `Sync cursor '${cursor}' is not a commit id; it must come from a checkpoint of this integration`,
    );
  }
  const head = await clone.update(signal);
  if (cursor === head) {
    yield { type: 'checkpoint', cursor: head };
    return;
  }
  const base = cursor !== null && (await clone.hasCommit(cursor)) ? cursor : null;
  if (cursor !== null && base === null)
    logger.warn(
      { sourceId, cursor, head },
      'previous commit unknown to the working clone; full re-sync without deletions',
    );

  const included = picomatch(config.include, { dot: true });
  const excluded = config.exclude && config.exclude.length > 0 ? picomatch(config.exclude, { dot: true }) : () => false;
  const changes = await diffTrees(clone.dir, base, head, (file) => included(file) && !excluded(file), signal);
  const modifiedAt = await clone.commitTime(head);
  const metadata = { repository: config.url, branch: config.branch, commit: head };

  let done = 0;
  for (const change of changes) {
    // Between files: a cancelled sync stops within one event.
    signal.throwIfAborted();
    if (change.kind === 'delete') yield { type: 'delete', externalId: change.path };
    else yield { type: 'upsert', document: toDocument(clone, change.path, change.oid, modifiedAt, metadata) };
    done += 1;
    if (done % progressEveryFiles === 0) yield { type: 'progress', done, total: changes.length };
  }
  signal.throwIfAborted();
  logger.info({ sourceId, from: base, to: head, changes: changes.length }, 'git repository synced');
  yield { type: 'checkpoint', cursor: head };
}

function toDocument(
  clone: WorkingClone,
  filePath: string,
  oid: string,
  modifiedAt: Date,
  metadata: Record<string, string>,
): ConnectorDocument {
  return {
    externalId: filePath,
    path: filePath,
    title: path.posix.basename(filePath),
    mediaType: mediaTypeOf(filePath),
    modifiedAt,
    // The blob oid: git's own content hash (SHA-1 of the blob object), known without reading the file.
    contentHash: oid,
    metadata,
    async open(signal?: AbortSignal) {
      signal?.throwIfAborted();
      // isomorphic-git reads a blob whole (objects are zlib-compressed, often inside packs); the
      // memory for one file is the price of not needing a git binary.
      const bytes = await clone.readBlob(oid);
      return (async function* () {
        yield bytes;
      })();
    },
  };
}
