import type { S3Client } from '@aws-sdk/client-s3';
import { DocqaError, type ConnectorEvent, type Logger, type OutboundGuard } from '@docqa/plugin-api';
import type { S3SourceConfig } from './config.js';
import { listBucket } from './listing.js';
import { mediaTypeOf, toConnectorDocument } from './object-document.js';
import { objectFilter } from './object-filter.js';
import { loadState, StateWriter, type ObjectVersion } from './sync-state.js';

export interface S3SyncSettings {
  client: S3Client;
  config: S3SourceConfig;
  /** This source's state file (see sync-state.ts). */
  stateFile: string;
  sourceId: string;
  logger: Logger;
  /** The plugin's shutdown signal, which also stops reads of documents announced by this sync. */
  shutdown: AbortSignal;
  /** The plugin's outboundAllow policy; the client's connections are checked by it too. */
  guard: OutboundGuard;
}

/** How often a sync reports progress, in listed keys. */
export const progressEveryKeys = 500;

/**
 * Lists the bucket and yields what changed since `cursor`: upserts for new and changed objects as
 * they are listed, deletes for objects gone once the listing is complete, then the checkpoint.
 *
 * Without a trusted previous state (first sync, stale cursor, lost state file) every object is
 * upserted; deletes are still yielded for the objects of whatever state file there is. Objects
 * deleted while the state file was lost cannot be known and are not reported (see README).
 */
export async function* syncBucket(
  settings: S3SyncSettings,
  cursor: string | null,
  signal: AbortSignal,
): AsyncGenerator<ConnectorEvent> {
  signal.throwIfAborted();
  const { client, config, logger } = settings;
  // An endpoint on a refused address fails the sync with the guard's error, naming the option. Other
  // failures (a name that does not resolve) are left to the listing, whose error names the store.
  if (config.endpoint !== undefined) {
    await settings.guard.checkUrl(config.endpoint).catch((error: unknown) => {
      if (DocqaError.is(error)) throw error;
    });
  }
  const scope = JSON.stringify([config.endpoint ?? `aws:${config.region}`, config.bucket, config.prefix ?? '']);
  const previous = await loadState(settings.stateFile, cursor, scope);
  if (previous.distrust !== undefined && previous.entries.size > 0) {
    logger.warn({ sourceId: settings.sourceId, reason: previous.distrust }, 'S3 sync state not trusted: full resync');
  }
  const filter = objectFilter(config);
  const writer = await StateWriter.create(settings.stateFile, previous.generation + 1, scope);
  let listed = 0;
  let upserts = 0;
  let deletes = 0;
  try {
    for await (const object of listBucket(client, config, signal)) {
      listed += 1;
      if (listed % progressEveryKeys === 0) yield { type: 'progress', done: listed };
      const path = filter.pathOf(object.key, object.size);
      if (path === null) continue;
      const version: ObjectVersion = {
        etag: object.etag,
        lastModifiedMs: object.lastModified.getTime(),
        size: object.size,
      };
      const before = previous.entries.get(object.key);
      previous.entries.delete(object.key);
      await writer.add(object.key, version);
      if (previous.trusted && before !== undefined && sameVersion(before, version)) continue;
      const mediaType = await mediaTypeOf(client, config, object.key, signal);
      signal.throwIfAborted();
      upserts += 1;
      yield {
        type: 'upsert',
        document: toConnectorDocument(client, config, object, path, mediaType, settings.shutdown),
      };
    }
    // What is left of the previous state was not listed again: deleted, or no longer included.
    for (const key of previous.entries.keys()) {
      signal.throwIfAborted();
      deletes += 1;
      yield { type: 'delete', externalId: key };
    }
    signal.throwIfAborted();

    let nextCursor: string;
    if (previous.trusted && cursor !== null && upserts === 0 && deletes === 0) {
      // Nothing changed: the state file already describes the bucket, so the cursor stays as it is.
      await writer.discard();
      nextCursor = cursor;
    } else {
      nextCursor = await writer.commit();
    }
    logger.info({ sourceId: settings.sourceId, listed, upserts, deletes, full: !previous.trusted }, 'S3 bucket synced');
    yield { type: 'checkpoint', cursor: nextCursor };
  } finally {
    // Abort, failure or a consumer that stopped early: the current state stays as it was.
    await writer.discard();
  }
}

function sameVersion(a: ObjectVersion, b: ObjectVersion): boolean {
  return a.etag === b.etag && a.lastModifiedMs === b.lastModifiedMs && a.size === b.size;
}
