import { defineModule, optional, providerTokens, tokens, type AnyModule } from '@docqa/plugin-api';
import {
  modelPullQueue,
  modelsTokens,
  type CurrentModels,
  type ModelPullJobData,
  type ModelRuntimeOptions,
} from './contract.js';
import { DatabaseIndexStatus } from './index-status.js';
import { modelPullQueueOptions, runModelPull } from './pull-job.js';
import { LocalModelRuntime } from './runtime.js';
import { modelMigrations } from './schema.js';

/**
 * Local models (docs/models.md): the models directory and catalogue, `docqa models use` switching
 * without a restart, pulls as jobs, and which chat model and embedder answer now. Every process runs
 * the runtime, before any worker starts (its onStart comes before all onWorkerStart): the first
 * ingest job must already embed with a model chosen with `models use`.
 */
export function createModelsModule(options: ModelRuntimeOptions = {}): AnyModule {
  return defineModule({
    id: 'models',
    deps: {
      db: tokens.db,
      config: tokens.config,
      jobs: tokens.jobs,
      outbound: tokens.outbound,
      contextWindow: tokens.contextWindow,
      configuredLlm: optional(providerTokens.llm),
      configuredEmbedder: optional(providerTokens.embedder),
      vectorStore: optional(providerTokens.vectorStore),
    },
    provides: {
      current: modelsTokens.current,
      runtime: modelsTokens.runtime,
      indexStatus: modelsTokens.indexStatus,
    },
    migrations: modelMigrations,
    queues: { [modelPullQueue]: modelPullQueueOptions },
    init: async ({ deps, logger, onStop }) => {
      const runtime = await LocalModelRuntime.start(deps, logger, options);
      onStop(() => runtime.close());
      const current: CurrentModels = {
        switchedChatBackend: () => runtime.switcher.chatBackend(),
        embedder: () => runtime.switcher.embedder() ?? deps.configuredEmbedder ?? null,
      };
      return { current, runtime, indexStatus: new DatabaseIndexStatus(deps.db, current, deps.vectorStore) };
    },
    onWorkerStart: async ({ deps, logger, provided }) => {
      // A pull downloads into MODELS_DIR of the replica that runs it.
      const store = provided.runtime.store;
      await deps.jobs.work<ModelPullJobData>(modelPullQueue, (job) =>
        runModelPull(store, logger, job, deps.outbound.fetch),
      );
    },
  });
}

export const modelsModule = createModelsModule();
