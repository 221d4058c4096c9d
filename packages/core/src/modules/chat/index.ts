import { defineModule, optional, providerTokens, tokens } from '@docqa/plugin-api';
import { metricsTokens } from '../metrics/contract.js';
import { modelsTokens } from '../models/contract.js';
import { rulesTokens } from '../rules/contract.js';
import { searchTokens } from '../search/contract.js';
import { GroundedChatService } from './chat-service.js';
import { classifierLlmStatus } from './classifier-llm.js';
import { chatTokens } from './contract.js';
import { ConversationStore } from './conversation-store.js';
import { conversationMigrations } from './migrations.js';

/**
 * Chat (spec 2.6): a question answered from the passages the caller may read, by the LLM in effect
 * (a switched local model, the configured backend, or extractive quotes), and the conversations it
 * keeps. Conversations reference the users' table, whose migrations are the application's and run first.
 */
export const chatModule = defineModule({
  id: 'chat',
  deps: {
    db: tokens.db,
    config: tokens.config,
    settings: tokens.settings,
    audit: tokens.audit,
    contextWindow: tokens.contextWindow,
    configuredLlm: optional(providerTokens.llm),
    search: searchTokens.service,
    rules: rulesTokens.service,
    models: modelsTokens.current,
    metrics: optional(metricsTokens.service),
  },
  provides: { service: chatTokens.service, conversations: chatTokens.conversations },
  migrations: conversationMigrations,
  init: ({ deps, logger }) => {
    const conversations = new ConversationStore(deps.db, deps.audit);
    const service = new GroundedChatService({
      ...deps,
      logger,
      conversations,
      metrics: deps.metrics?.llm ?? null,
    });
    return { service, conversations };
  },
  // After the models module loaded a model chosen with `docqa models use`, which the classifier would ask.
  onStart: ({ deps, logger }) => {
    const backend = deps.models.switchedChatBackend() ?? deps.configuredLlm ?? null;
    const status = classifierLlmStatus(deps.config.get('RAG_CLASSIFIER_LLM_ENABLED') === true, backend);
    if (status.note) logger.warn(status.note);
  },
});
