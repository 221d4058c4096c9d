import { createToken } from './tokens.js';
import type {
  AuditService,
  ConfigService,
  ContextWindow,
  Db,
  JobActivity,
  JobsService,
  Logger,
  ReadDb,
  SettingsService,
} from './services.js';
import type { ConnectorProvider } from './kinds/connector.js';
import type { ExtractorProvider } from './kinds/extractor.js';
import type { VectorStoreProvider } from './kinds/vector-store.js';
import type { EmbeddingProvider } from './kinds/embedder.js';
import type { LlmBackend } from './kinds/llm.js';
import type { EmailProvider } from './kinds/email.js';
import type { LicenseGate } from './kinds/license-gate.js';
import type { RerankerProvider } from './kinds/reranker.js';
import type { OutboundPolicy } from './net/outbound-policy.js';

/** Services the kernel registers before any plugin starts. */
export const tokens = {
  config: createToken<ConfigService>('core.config'),
  settings: createToken<SettingsService>('core.settings'),
  logger: createToken<Logger>('core.logger'),
  db: createToken<Db>('core.db'),
  /** Reads that may lag a little (search): a healthy read replica, else the primary. */
  readDb: createToken<ReadDb>('core.readDb'),
  jobs: createToken<JobsService>('core.jobs'),
  /** The same runner, as observers see it. */
  jobActivity: createToken<JobActivity>('core.jobActivity'),
  audit: createToken<AuditService>('core.audit'),
  /** EFFECTIVE_N_CTX, derived once plugins have started and changed when a chat model is switched. */
  contextWindow: createToken<ContextWindow>('core.contextWindow'),
  /** Where the server may connect: public addresses and OUTBOUND_ALLOW (docs/security.md). */
  outbound: createToken<OutboundPolicy>('core.outbound'),
};

/** What each plugin kind provides, and the token it is registered under. */
export interface ProviderKinds {
  connector: ConnectorProvider;
  extractor: ExtractorProvider;
  vectorStore: VectorStoreProvider;
  embedder: EmbeddingProvider;
  llm: LlmBackend;
  email: EmailProvider;
  licenseGate: LicenseGate;
  /** Loaded only when RAG_RERANK_ENABLED is set: search then reorders its fused top candidates. */
  reranker: RerankerProvider;
}

export type PluginKind = keyof ProviderKinds;

export const providerTokens = {
  connector: createToken<ConnectorProvider>('provider.connector', { multi: true }),
  extractor: createToken<ExtractorProvider>('provider.extractor', { multi: true }),
  vectorStore: createToken<VectorStoreProvider>('provider.vectorStore'),
  embedder: createToken<EmbeddingProvider>('provider.embedder'),
  llm: createToken<LlmBackend>('provider.llm'),
  email: createToken<EmailProvider>('provider.email'),
  licenseGate: createToken<LicenseGate>('provider.licenseGate'),
  reranker: createToken<RerankerProvider>('provider.reranker'),
} as const satisfies { [K in PluginKind]: import('./tokens.js').Token<ProviderKinds[K]> };

export const pluginKinds = Object.keys(providerTokens) as PluginKind[];
