import type { ZodType } from 'zod';

export interface ConnectorCapabilities {
  /** sync() honours the cursor and yields only what changed since it. */
  incremental: boolean;
  /** sync() yields delete events for documents that disappeared at the source. */
  deletions: boolean;
  /** Documents carry access-control lists (group names). */
  acls: boolean;
  /**
   * The source stores files DocQA hands it (`ConnectorProvider.openStorage`): uploads with a
   * connector_id, moves and deletes then change the source itself. Absent means false.
   */
  storage?: boolean;
}

/** A document as a connector announces it; the bytes are read only when the pipeline asks. */
export interface ConnectorDocument {
  /** Stable id at the source (a relative path, an object key, a URL). */
  externalId: string;
  /** Path shown to users and used by connector-scoped operations. */
  path: string;
  title?: string;
  mediaType?: string;
  size?: number;
  modifiedAt?: Date;
  /** Hash of the content when the source knows it cheaply; lets the pipeline skip unchanged bytes. */
  contentHash?: string;
  acl?: { groups: string[] };
  /**
   * The externalId this document had before, when the source knows it moved (same content, new
   * place): the pipeline updates the stored document in place and keeps its chunks.
   */
  movedFrom?: string;
  metadata?: Record<string, string>;
  open(signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
}

export type ConnectorEvent =
  | { type: 'upsert'; document: ConnectorDocument }
  | { type: 'delete'; externalId: string }
  /** Everything before this event is durable; a later sync may resume from `cursor`. */
  | { type: 'checkpoint'; cursor: string }
  | { type: 'progress'; done: number; total?: number };

export interface ConnectorSource {
  /**
   * Yields what changed since `cursor` (null: everything). Must stop promptly, throwing the
   * signal's reason, once `signal` is aborted.
   */
  sync(cursor: string | null, signal: AbortSignal): AsyncIterable<ConnectorEvent>;
  close?(): Promise<void>;
}

export interface ConnectorContext {
  /** The id of the connector or integration record this source belongs to. */
  sourceId: string;
}

/** A file as a connector's storage holds it after a write or a move. */
export interface StoredConnectorFile {
  /** The id a sync announces this file under (`ConnectorDocument.externalId`). */
  externalId: string;
  /** The connector-relative path a sync announces (`ConnectorDocument.path`). */
  path: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Writing into a source (capability `storage`). Paths are relative to the source's root, with `/`
 * separators; the plugin holds its own border: a path that is absolute, has `.` or `..` segments,
 * passes through a link, leads out of the source, or names a file its syncs would not announce
 * (excluded) is refused with `validation_failed` naming the argument (`path`, `from`, `to`), and
 * nothing is written. Writes and moves never replace an existing file: they answer `conflict`.
 * A file a write or a move produced is announced by the source's next syncs like any other file,
 * under the returned externalId.
 */
export interface ConnectorStorage {
  /**
   * Refuses a path `write` would refuse (border, exclusion, an existing file) without writing
   * anything, so that a caller can say no before it reads an upload's bytes.
   */
  checkWritable(path: string): Promise<void>;
  /**
   * Streams `content` into a new file at `path`, creating missing directories. Atomic: the bytes go
   * to a temporary file that a sync never announces, which becomes `path` only once complete; on
   * any failure (the stream throws, the signal aborts, the plugin's size limit: `file_too_large`)
   * nothing is left behind.
   */
  write(
    path: string,
    content: AsyncIterable<Uint8Array>,
    options?: { signal?: AbortSignal },
  ): Promise<StoredConnectorFile>;
  /** Renames a file within the source (`not_found` when `from` is not a file), creating directories. */
  move(from: string, to: string): Promise<StoredConnectorFile>;
  /** Deletes a file; false when there was none at `path`. Empty directories are left in place. */
  delete(path: string): Promise<boolean>;
}

/**
 * A connector plugin provides one source type. Sources are configured at run time (the
 * connectors and integrations API) and validated against `sourceConfigSchema` on create and update.
 */
export interface ConnectorProvider<C = unknown> {
  /** The `type` of connector records it serves, such as `filesystem` or `web`. */
  readonly type: string;
  readonly displayName: string;
  /** `connector` (local paths) or `integration` (external sources). */
  readonly sourceKind: 'connector' | 'integration';
  readonly sourceConfigSchema: ZodType<C>;
  /** Config keys that are write-only: stored encrypted, answered as "***". */
  readonly secretFields: readonly string[];
  readonly capabilities: ConnectorCapabilities;
  open(config: C, context: ConnectorContext): Promise<ConnectorSource>;
  /**
   * Present exactly when `capabilities.storage`: the source's storage for uploads, moves and deletes
   * that target the connector. Refuses a config that `open` refuses, the same way.
   */
  openStorage?(config: C, context: ConnectorContext): Promise<ConnectorStorage>;
}
