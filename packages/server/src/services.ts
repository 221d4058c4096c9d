import type { Kernel } from '@docqa/kernel';
import { IdentityService } from './identity/identity-service.js';
import { MfaService } from './identity/mfa-service.js';
import { OidcService } from './identity/oidc-service.js';
import { groupsTokens, type GroupsService } from '@docqa/core/groups';
import { documentsTokens, type DocumentService, type IndexService } from '@docqa/core/documents';
import { sourcesTokens, type SourceService } from '@docqa/core/sources';
import { syncTokens, type SyncService } from '@docqa/core/sync';
import { rulesTokens, type RulesService } from '@docqa/core/rules';
import { metricsTokens, type Metrics } from '@docqa/core/metrics';
import { modelsTokens, type CurrentModels } from '@docqa/core/models';
import { searchTokens, type SearchService } from '@docqa/core/search';
import { chatTokens, type ChatService } from '@docqa/core/chat';

/** The application services routes work with, built once per server from the kernel. */
export interface AppServices {
  identity: IdentityService;
  mfa: MfaService;
  groups: GroupsService;
  oidc: OidcService;
  documents: DocumentService;
  search: SearchService;
  index: IndexService;
  sources: SourceService;
  syncs: SyncService;
  rules: RulesService;
  chat: ChatService;
  /** This server's Prometheus registry; the recorders in it are handed to the code they measure. */
  metrics: Metrics;
  /** The chat model and embedder answering now (a `docqa models use` switch changes them). */
  models: CurrentModels;
}

export function createServices(kernel: Kernel): AppServices {
  const identity = new IdentityService(kernel);
  const mfa = new MfaService(
    kernel.db,
    identity.users,
    identity.tokens,
    kernel.config.values.MFA_ENCRYPTION_KEY,
    identity.signIns,
  );
  const groups = kernel.resolve(groupsTokens.service);
  const sources = kernel.resolve(sourcesTokens.service);
  const documents = kernel.resolve(documentsTokens.service);
  const models = kernel.resolve(modelsTokens.current);
  const index = kernel.resolve(documentsTokens.index);
  const syncs = kernel.resolve(syncTokens.service);
  const rules = kernel.resolve(rulesTokens.service);
  const search = kernel.resolve(searchTokens.service);
  const metrics = kernel.resolve(metricsTokens.service);
  const chat = kernel.resolve(chatTokens.service);
  return {
    identity,
    mfa,
    groups,
    documents,
    index,
    sources,
    syncs,
    rules,
    search,
    chat,
    metrics,
    models,
    oidc: new OidcService(kernel, identity),
  };
}
