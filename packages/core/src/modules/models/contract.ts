import { createToken, type EmbeddingProvider, type LlmBackend } from '@docqa/plugin-api';
import type { GgufSummary } from './gguf.js';
import type { ModelPurpose } from './schema.js';
import type { InstalledModel, ModelStore } from './store.js';

// What other code may know of the models module: the models in effect, the runtime that switches
// them, and the offline pieces `docqa models` uses without a kernel (the store and its paths).

export type { ModelPurpose } from './schema.js';
export type { InstalledModel, ModelPaths } from './store.js';
export type { CatalogueEntry } from './catalogue.js';
export type { DownloadProgress } from './download.js';
export type { GgufSummary } from './gguf.js';
export { ModelStore, modelPaths } from './store.js';
export { downloadUrl } from './catalogue.js';
export { rerankModelPath } from './rerank-model.js';

/** The models answering now; chat, search and ingestion ask at each use, as a switch can happen any time. */
export interface CurrentModels {
  /** The chat model chosen with `docqa models use`, when one is loaded; null: the configured LLM plugin. */
  switchedChatBackend(): LlmBackend | null;
  /** The embedder in effect: the one chosen with `docqa models use`, else the configured one, else none. */
  embedder(): EmbeddingProvider | null;
}

/** A model in effect, for /api/models and /api/model-info. */
export interface ModelDetails {
  /** `switched`: chosen with `docqa models use`; `configured`: LLM_MODEL_PATH / EMBEDDING_MODEL_PATH. */
  source: 'switched' | 'configured';
  name: string;
  file: string;
  path: string;
  gguf: GgufSummary | null;
  license: string | null;
}

export interface UseOutcome {
  purpose: ModelPurpose;
  /** null: back to the configured model. */
  model: InstalledModel | null;
  previous: string | null;
}

/** Local model management in this process: the models directory, and switching without a restart. */
export interface ModelRuntime {
  readonly store: ModelStore;
  /**
   * Makes an installed model the one in use for its purpose, on this replica at once (it is loaded
   * before anything is stored, so a model that cannot load changes nothing) and on the others
   * within the poll interval. `name` null returns `purpose` to the configured model.
   */
  use(name: string | null, options?: { purpose?: ModelPurpose; actor?: string | null }): Promise<UseOutcome>;
  /** The chat or embedding model in effect and where it came from; null when there is none. */
  details(purpose: ModelPurpose): Promise<ModelDetails | null>;
}

export interface IndexStatus {
  chunks: number;
  /** Chunks with a vector of the embedding model in use now. */
  embedded_chunks: number;
  /**
   * True when chunks lack a vector of the current embedding model, as after switching models:
   * dense retrieval then sees only the embedded part until a rebuild re-embeds the rest.
   */
  stale: boolean;
  embedding_space: { model: string; dimensions: number } | null;
}

export interface IndexStatusService {
  /** Whether the index matches the embedding model in use. */
  read(): Promise<IndexStatus>;
}

/** The queue of POST /api/models/pull; its jobs show in GET /api/jobs as kind model_pull. */
export const modelPullQueue = 'model_pull';

export interface ModelPullJobData {
  name: string;
  requestedBy: string;
}

/** How quickly a process follows a switch made on another replica, and how long a replaced model lingers. */
export interface ModelRuntimeOptions {
  /** How often this process looks for a model chosen on another replica (default 3 s). */
  pollSeconds?: number;
  /** How long a replaced model stays loaded at least (default 10 s), for requests that just took it. */
  retireGraceMs?: number;
  /**
   * False in maintenance tools (export, import) that never answer: the module's tables and store,
   * but no model chosen with `docqa models use` is loaded and the table is not polled.
   */
  loadModels?: boolean;
}

export const modelsTokens = {
  current: createToken<CurrentModels>('models.current'),
  runtime: createToken<ModelRuntime>('models.runtime'),
  indexStatus: createToken<IndexStatusService>('models.indexStatus'),
};
