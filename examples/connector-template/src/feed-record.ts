import crypto from 'node:crypto';
import { z } from 'zod';
import { DocqaError, type ConnectorDocument } from '@docqa/plugin-api';
import type { FeedSourceConfig } from './config.js';

/*
 * One line of the feed, such as
 *   {"id": "kb-42", "title": "VPN setup", "body": "…", "updated_at": "2025-03-01T10:00:00Z", "groups": ["it"]}
 *   {"id": "kb-17", "updated_at": "2025-03-02T08:00:00Z", "deleted": true}
 *
 * Everything that comes from outside is validated before it becomes a document: a connector is the
 * border between DocQA and a system it does not control.
 */

export interface FeedRecord {
  id: string;
  updatedAt: Date;
  /** A tombstone: the document is gone at the source. */
  deleted: boolean;
  /** Groups allowed to see the document; absent when the record names none. */
  groups: string[] | undefined;
  title: string;
  body: string;
}

/**
 * An ISO 8601 timestamp with a time zone (`Z` or an offset), so that two writers in different time
 * zones still order correctly. Stricter than `new Date(text)`, which reads "page-7" as 2001-07-01.
 */
export const isoTimestamp = z.iso.datetime({ offset: true });

// Other fields are allowed (loose object): feeds often carry more than a connector needs.
const recordFields = z.looseObject({
  id: z.string().min(1, 'must be a non-empty string'),
  updated_at: isoTimestamp,
  deleted: z.boolean().optional(),
  groups: z.array(z.string().min(1)).optional(),
});

/** Returns a parser for one source's lines; the title and body field names come from its config. */
export function feedRecordParser(config: Pick<FeedSourceConfig, 'path' | 'titleField' | 'bodyField'>) {
  // A tombstone needs no title or body: only its id and time matter.
  const contentFields = z.object({ [config.titleField]: z.string(), [config.bodyField]: z.string() });

  return function parseFeedLine(line: string, lineNumber: number): FeedRecord {
    // The line number is in every message: it is what the person fixing the feed needs first.
    const invalid = (detail: string, cause?: unknown) =>
      new DocqaError('validation_failed', `JSON Lines feed ${config.path}, line ${lineNumber}: ${detail}`, {
        cause,
        errors: [{ field: `line ${lineNumber}`, message: detail }],
      });

    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw invalid(`not valid JSON (${(error as Error).message})`, error);
    }
    const fields = recordFields.safeParse(value);
    if (!fields.success) throw invalid(describeIssues(fields.error));
    const deleted = fields.data.deleted === true;
    let title = '';
    let body = '';
    if (!deleted) {
      const content = contentFields.safeParse(value);
      if (!content.success) throw invalid(describeIssues(content.error));
      title = content.data[config.titleField] as string;
      body = content.data[config.bodyField] as string;
    }
    return {
      id: fields.data.id,
      updatedAt: new Date(fields.data.updated_at),
      deleted,
      groups: fields.data.groups,
      title,
      body,
    };
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `field '${issue.path.join('.')}': ${issue.message}` : issue.message))
    .join('; ');
}

/**
 * Turns a record into the document DocQA indexes. The pipeline reads the bytes only when it asks
 * (`open()`), so a connector whose documents live elsewhere (an HTTP API, object storage) fetches
 * them there. Here the body arrived with the line we just read, so the document keeps it.
 */
export function toConnectorDocument(record: FeedRecord): ConnectorDocument {
  const bytes = new TextEncoder().encode(record.body);
  return {
    // The id the source uses: stable across syncs, so an update replaces the document it updates.
    externalId: record.id,
    // Shown to users and used by connector-scoped operations; the id is the one stable name a feed has.
    path: record.id,
    title: record.title,
    mediaType: 'text/plain',
    size: bytes.byteLength,
    modifiedAt: record.updatedAt,
    // A cheap hash lets the pipeline skip re-extracting and re-embedding unchanged text.
    contentHash: crypto.createHash('sha256').update(bytes).digest('hex'),
    // DocQA filters search results by these groups; `acls: true` in the capabilities promises them.
    ...(record.groups ? { acl: { groups: record.groups } } : {}),
    async open(signal?: AbortSignal) {
      signal?.throwIfAborted();
      return oneChunk(bytes);
    },
  };
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
