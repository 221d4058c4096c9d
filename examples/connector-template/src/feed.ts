import fs from 'node:fs';
import readline from 'node:readline';
import { DocqaError, type ConnectorEvent, type Logger } from '@docqa/plugin-api';
import type { FeedSourceConfig } from './config.js';
import { feedRecordParser, isoTimestamp, toConnectorDocument } from './feed-record.js';

/** Everything one sync needs: the source's config plus what the plugin instance was given. */
export interface FeedSyncSettings {
  config: FeedSourceConfig;
  maxDocuments: number;
  instanceId: string;
  sourceId: string;
  logger: Logger;
}

/** How often a sync reports progress, in lines. Often enough for a progress bar, rarely enough to cost nothing. */
export const progressEveryLines = 100;

/**
 * The cursor of a feed that held no records yet. A checkpoint always carries a cursor, and the
 * epoch means "everything after the beginning": the next sync still yields every record.
 */
export const emptyFeedCursor = new Date(0).toISOString();

/*
 * The cursor is the latest `updated_at` the previous sync saw, as an ISO timestamp. A record
 * counts as changed when its `updated_at` is later. This asks one thing of the feed's writer: every
 * change gets a later timestamp than the changes before it (timestamps are compared to the
 * millisecond). Sources with a change log or a version number make better cursors; use one when
 * your source has it. Whatever you choose, the cursor is opaque to DocQA: it stores the string from
 * your last checkpoint and hands it back to the next sync.
 */

/**
 * Reads the feed line by line and yields what changed after `cursor` (everything when null).
 *
 * Streams, not buffers: a feed of a million lines is read through a small buffer, and each event is
 * yielded before the next line is read, so memory stays bounded whatever the file size.
 */
export async function* syncFeed(
  settings: FeedSyncSettings,
  cursor: string | null,
  signal: AbortSignal,
): AsyncGenerator<ConnectorEvent> {
  // Checked before the file is even opened: a cancelled job must not announce any document.
  signal.throwIfAborted();
  const { config, logger } = settings;
  const after = cursor === null ? null : parseCursor(cursor);
  const parseLine = feedRecordParser(config);

  // `signal` on the stream closes the file at once on abort, even while waiting for the disk.
  const input = fs.createReadStream(config.path, { encoding: 'utf8', signal });
  // crlfDelay: a Windows-written feed (\r\n) still gives one line per record.
  const lines = readline.createInterface({ input, crlfDelay: Infinity });

  let lineNumber = 0;
  let latest = after;
  let upserts = 0;
  let deletes = 0;
  try {
    for await (const line of lines) {
      // readline hands out lines it has already buffered even after the stream closed, so the
      // signal is checked on every line: a cancelled sync stops within one line.
      signal.throwIfAborted();
      lineNumber += 1;
      if (line.trim() !== '') {
        const record = parseLine(line, lineNumber);
        if (after === null || record.updatedAt > after) {
          if (record.deleted) {
            deletes += 1;
            yield { type: 'delete', externalId: record.id };
          } else {
            upserts += 1;
            if (upserts > settings.maxDocuments) throw tooManyDocuments(settings);
            yield { type: 'upsert', document: toConnectorDocument(record) };
          }
        }
        if (latest === null || record.updatedAt > latest) latest = record.updatedAt;
      }
      if (lineNumber % progressEveryLines === 0) yield { type: 'progress', done: lineNumber };
    }
  } catch (error) {
    // An abort surfaces from the stream as a generic AbortError; callers expect the signal's reason.
    if (signal.aborted) throw signal.reason;
    if (error instanceof DocqaError) throw error;
    throw new DocqaError('unavailable', `Cannot read JSON Lines feed ${config.path}: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    // Runs also when the consumer stops early (break, or an error downstream): never leak a file handle.
    lines.close();
    input.destroy();
  }
  // The stream may also end quietly on abort; a checkpoint after an abort would claim work that never happened.
  signal.throwIfAborted();

  const nextCursor = latest === null ? emptyFeedCursor : latest.toISOString();
  logger.info(
    { sourceId: settings.sourceId, lines: lineNumber, upserts, deletes, cursor: nextCursor },
    'JSON Lines feed synced',
  );
  // The checkpoint is last: DocQA stores the cursor only once everything before it is durable, so
  // a sync that fails half-way is simply repeated from the previous cursor.
  yield { type: 'checkpoint', cursor: nextCursor };
}

function parseCursor(cursor: string): Date {
  if (!isoTimestamp.safeParse(cursor).success) {
    throw new DocqaError(
      'validation_failed',
      `Sync cursor '${cursor}' is not an ISO timestamp; it must come from a checkpoint of this connector`,
    );
  }
  return new Date(cursor);
}

function tooManyDocuments(settings: FeedSyncSettings): DocqaError {
  // Failing is safer than stopping quietly at the limit: a truncated sync would end with a
  // checkpoint, and the documents beyond the limit would never be synced.
  return new DocqaError(
    'validation_failed',
    `JSON Lines feed ${settings.config.path} has more than maxDocuments ` +
      `(${settings.maxDocuments}) changed documents; ` +
      `raise the option maxDocuments of plugin instance '${settings.instanceId}' if the feed is meant to be this large`,
    { extra: { limit: settings.maxDocuments } },
  );
}
