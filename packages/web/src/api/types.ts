// Shapes of the public HTTP API. The named schemas of the OpenAPI document come from @docqa/client's
// generated types (aliases below), so a change of the API shows here as a type error; the rest are
// shapes the document leaves inline (pages, inputs) or describes more loosely than the UI reads them.
import type { components, operations, paths } from '@docqa/client/openapi';

type Schemas = components['schemas'];

export type Role = User['role'];

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export type TokenPair = Schemas['TokenPair'];

export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
}

export type User = Schemas['User'];

export type KeyScope = ApiKey['scopes'][number];

export type ApiKey = Schemas['ApiKey'];

/** A group; its detail (GET /api/groups/{id}) lists the members too. */
export type Group = Schemas['Group'] & { members?: Array<{ id: string; username: string }> };

export type OidcProvider = Schemas['OidcProvider'];

/** What creating or changing a provider sends: the secret in clear, not the "***" the API answers. */
export type OidcProviderInput = Partial<
  paths['/api/admin/oidc/providers']['post']['requestBody']['content']['application/json']
>;

export type DocumentStatus = DocumentRecord['status'];

/** `duplicate`: only in an upload's answer. */
export type DocumentRecord = Schemas['Document'] & { duplicate?: boolean };

export type SourceKind = 'connectors' | 'integrations';

export type Source = Schemas['Source'];

export interface SourceInput {
  name: string;
  type: string;
  config: Record<string, unknown>;
  enabled: boolean;
}

export type JobStatus = Job['status'];

export type Job = Schemas['Job'];

export type Rule = Schemas['Rule'];

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

export type Schedule = Schemas['Schedule'];

/** A saved conversation's sources leave the chunk text out. */
export type ChatSource = Omit<Schemas['ChatSource'], 'text'> & { text?: string };

export type TokenBudget = NonNullable<Schemas['ChatAnswer']['token_budget']>;

/** The `done` event of a streamed answer: the JSON answer without `answer`. */
export type ChatMeta = Omit<Schemas['ChatAnswer'], 'answer'>;

export type ConversationSummary = Schemas['ConversationSummary'];

/** The document types a saved turn's sources and budget as loose records; they are the chat answer's. */
export type ConversationTurn = Omit<Schemas['ConversationTurn'], 'sources' | 'token_budget'> & {
  sources: ChatSource[];
  token_budget: TokenBudget | null;
};

export interface Conversation {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  turns: ConversationTurn[];
}

/** The owner's thumbs up or down on one answer. */
export type TurnFeedback = Schemas['TurnFeedback'];

export type FeedbackRating = TurnFeedback['rating'];

/** GET /api/analytics/feedback (admins): counts per period and the latest down-rated answers. */
export type FeedbackReport = Json<'feedbackReport', 200>;

/** Where a cited passage sits in its document (pages, headings, offsets into the extracted text). */
export type SourceLocation = Schemas['SourceLocation'];

/** GET /api/docs/{id}/content: a slice of the extracted text with the whole document's sections and pages. */
export type DocumentContent = Schemas['DocumentContent'];

export type AuditEntry = Schemas['AuditEntry'];

export type Branding = Schemas['Branding'];

export type License = Schemas['License'];

export type RuntimeSettings = Schemas['RuntimeSettings'];

export type IndexStats = Schemas['IndexStats'];

type Json<T extends keyof operations, S extends number> =
  operations[T]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

/** GET /api/models: the catalogue, the installed files, the models in use and the index's state. */
export type Models = Json<'listModels', 200>;

export type ModelUse = Json<'useModel', 200>;

export type ModelPurpose = Models['installed'][number]['purpose'];

/** The kinds of resource access grants (ENTERPRISE) apply to. */
export type ResourceType = 'connector' | 'integration' | 'document';

export type ResourceAccess = Json<'getResourceAccess', 200>;

export type BulkDeleteResult = Json<'deleteDocuments', 200>;
