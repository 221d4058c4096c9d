import type { Kernel } from '@docqa/kernel';
import { identityTokens, type IdentityService, type MfaService, type OidcService } from '@docqa/core/identity';
import { groupsTokens, type GroupsService } from '@docqa/core/groups';
import { documentsTokens, type DocumentService, type IndexService } from '@docqa/core/documents';
import { sourcesTokens, type SourceService } from '@docqa/core/sources';
import { syncTokens, type SyncService } from '@docqa/core/sync';
import { rulesTokens, type RulesService } from '@docqa/core/rules';
import { metricsTokens, type Metrics } from '@docqa/core/metrics';
import { modelsTokens, type CurrentModels } from '@docqa/core/models';
import { searchTokens, type SearchService } from '@docqa/core/search';
import { chatTokens, type ChatService } from '@docqa/core/chat';

/**
 * The modules' services as the HTTP layer's own wiring (authentication, HTTP metrics), tests and the
 * CLI reach them on a running server; routes declare theirs in `deps` instead.
 */
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

/** The modules' services by their tokens: nothing is built here any more. */
export function createServices(kernel: Kernel): AppServices {
  return {
    identity: kernel.resolve(identityTokens.service),
    mfa: kernel.resolve(identityTokens.mfa),
    oidc: kernel.resolve(identityTokens.oidc),
    groups: kernel.resolve(groupsTokens.service),
    documents: kernel.resolve(documentsTokens.service),
    index: kernel.resolve(documentsTokens.index),
    sources: kernel.resolve(sourcesTokens.service),
    syncs: kernel.resolve(syncTokens.service),
    rules: kernel.resolve(rulesTokens.service),
    search: kernel.resolve(searchTokens.service),
    chat: kernel.resolve(chatTokens.service),
    metrics: kernel.resolve(metricsTokens.service),
    models: kernel.resolve(modelsTokens.current),
  };
}
