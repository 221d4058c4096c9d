import { createToken, type ConnectorProvider } from '@docqa/plugin-api';

// What other code may know of sources (connectors and integrations as records): the token, the
// service, and the shapes it speaks in. Syncing a source is the sync module's; its documents are the
// documents module's.

export type SourceKind = 'connector' | 'integration';

/** A source as stored; `secrets` is sealed (use `secretsOf` or `fullConfig`). */
export interface SourceRow {
  id: string;
  kind: SourceKind;
  type: string;
  name: string;
  config: Record<string, unknown>;
  secrets: string | null;
  enabled: boolean;
  cursor: string | null;
  last_sync_at: string | null;
  last_sync_status: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface SourceInput {
  name: string;
  type: string;
  config: Record<string, unknown>;
  enabled: boolean;
}

/** A source as the API shows it: secrets as "***", with its document count. */
export interface SourceView {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  enabled: boolean;
  last_sync_at: string | null;
  last_sync_status: string | null;
  last_error: string | null;
  document_count: number;
  created_at: string;
  updated_at: string;
}

export interface SourceService {
  /** The plugin of a type; `validation_failed` naming the available ones when there is none. */
  provider(kind: SourceKind, type: string): ConnectorProvider;
  /** Validates the config with the plugin, checks it opens, seals its secrets. `conflict` on a taken name. */
  create(kind: SourceKind, input: SourceInput): Promise<SourceRow>;
  update(kind: SourceKind, id: string, input: SourceInput): Promise<SourceRow>;
  /** `not_found` when there is no such source of that kind. */
  get(kind: SourceKind, id: string): Promise<SourceRow>;
  byId(id: string): Promise<SourceRow | null>;
  list(kind: SourceKind, limit: number, offset: number): Promise<{ items: SourceRow[]; total: number }>;
  enabled(): Promise<SourceRow[]>;
  delete(kind: SourceKind, id: string): Promise<SourceRow>;
  secretsOf(row: SourceRow): Record<string, unknown>;
  /** The full config a plugin opens with: stored fields and unsealed secrets. */
  fullConfig(row: SourceRow): Record<string, unknown>;
  documentCount(id: string): Promise<number>;
  present(row: SourceRow): Promise<SourceView>;
}

export const sourcesTokens = {
  service: createToken<SourceService>('module.sources.service'),
};
