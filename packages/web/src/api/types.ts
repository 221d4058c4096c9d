// Shapes of the public HTTP API, as the OpenAPI document (/docs/openapi.json) describes them.

export type Role = 'admin' | 'editor' | 'viewer';

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: string;
}

export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
}

export interface User {
  id: string;
  username: string;
  email: string | null;
  role: Role;
  mfa_enabled: boolean;
  sso_provider: string | null;
  created_at: string;
  updated_at: string;
}

export type KeyScope = 'read' | 'write' | 'admin';

export interface ApiKey {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface Group {
  id: string;
  name: string;
  description: string;
  builtin: boolean;
  member_count: number | null;
  created_at: string;
  updated_at: string;
  members?: Array<{ id: string; username: string }>;
}

export interface OidcProvider {
  id: string;
  name: string;
  display_name: string;
  discovery_url: string;
  client_id: string;
  client_secret: string | null;
  redirect_uri: string;
  scopes: string;
  admin_groups: string[];
  groups_claim: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export type DocumentStatus = 'pending' | 'indexing' | 'indexed' | 'failed';

export interface DocumentRecord {
  id: string;
  filename: string;
  path: string;
  title: string | null;
  media_type: string;
  size_bytes: number;
  status: DocumentStatus;
  error: string | null;
  job_id: string | null;
  source_type: 'upload' | 'connector' | 'integration';
  source_id: string | null;
  chunk_count: number;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  indexed_at: string | null;
  duplicate?: boolean;
}

export type SourceKind = 'connectors' | 'integrations';

export interface Source {
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

export interface SourceInput {
  name: string;
  type: string;
  config: Record<string, unknown>;
  enabled: boolean;
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface Job {
  id: string;
  kind: string;
  status: JobStatus;
  source_type: 'connector' | 'integration' | null;
  source_id: string | null;
  progress: { done: number; total: number | null };
  eta_seconds: number | null;
  error: string | null;
  result?: unknown;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface Rule {
  id: string;
  field_name: string;
  pattern: string;
  query_pattern: string | null;
  scope: 'full' | 'header' | 'filename';
  level: 'document' | 'chunk';
  chunk_boundary: boolean;
  priority: number;
  source_id: string;
  source_type: 'connector' | 'integration';
}

export type RuleInput = Pick<
  Rule,
  'field_name' | 'pattern' | 'query_pattern' | 'scope' | 'level' | 'chunk_boundary' | 'priority'
>;

export interface RuleTestResult {
  document: Record<string, string>;
  chunks: Array<{ text: string; values: Record<string, string>; origin: Record<string, 'self' | 'inherited'> }>;
  boundaries: number[];
  error: string | null;
}

export interface Schedule {
  id: string;
  source_type: 'connector' | 'integration';
  source_id: string;
  cron: string;
  enabled: boolean;
  last_run: string | null;
  next_run: string | null;
}

export interface ChatSource {
  index: number;
  chunk_id: string;
  document_id: string;
  title: string;
  path: string;
  text?: string;
  score: number;
  metadata: Record<string, unknown>;
}

export interface TokenBudget {
  limit: number;
  estimated_prompt: number;
  reserved_completion: number;
  chunks_dropped: number;
  history_turns_dropped?: number;
}

export interface ChatMeta {
  conversation_id: string;
  sources: ChatSource[];
  token_budget: TokenBudget | null;
  retrieval_settings: Record<string, unknown>;
  timing: Record<string, number>;
}

export interface ConversationSummary {
  id: string;
  title: string;
  turns: number;
  created_at: string;
  updated_at: string;
}

export interface ConversationTurn {
  query: string;
  rewritten_query: string | null;
  answer: string;
  sources: ChatSource[];
  retrieval_settings: Record<string, unknown>;
  token_budget: TokenBudget | null;
  timing: Record<string, number>;
  created_at: string;
}

export interface Conversation {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  turns: ConversationTurn[];
}

export interface AuditEntry {
  id: string;
  seq: number;
  occurred_at: string;
  type: string;
  actor: { id: string; username: string } | null;
  ip: string | null;
  target: string | null;
  outcome: 'success' | 'failure';
  details: Record<string, unknown>;
}

export interface Branding {
  name: string;
  colors: { primary: string; accent: string; background: string; text: string };
  texts: { welcome: string; chat_placeholder: string; footer: string; support_email: string };
  logo_url: string | null;
  updated_at: string | null;
}

export interface License {
  plan: string;
  licensee: string | null;
  license_id: string | null;
  expires_at: string | null;
  lapsed: boolean;
  limits: { documents: number | null; file_size_bytes: number | null; storage_bytes: number | null };
  usage: { documents: number; storage_bytes: number };
}

export interface RuntimeSettings {
  settings: Record<string, string | number | boolean>;
  derived: Record<string, number>;
}

export interface IndexStats {
  documents: Record<DocumentStatus | 'total', number>;
  chunks: number;
  embedded_chunks: number;
  index_size_bytes: number;
  last_update: string | null;
}
