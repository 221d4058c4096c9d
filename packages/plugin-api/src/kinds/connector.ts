import type { ZodType } from 'zod';

export interface ConnectorCapabilities {
  /** sync() honours the cursor and yields only what changed since it. */
  incremental: boolean;
  /** sync() yields delete events for documents that disappeared at the source. */
  deletions: boolean;
  /** Documents carry access-control lists (group names). */
  acls: boolean;
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
}
