import path from 'node:path';
import {
  DocqaError,
  type ConfigService,
  type ContextWindow,
  type Db,
  type EmbeddingProvider,
  type LlmBackend,
  type Logger,
} from '@docqa/plugin-api';
import type { ModelDetails, ModelRuntime, ModelRuntimeOptions, UseOutcome } from './contract.js';
import { inspectGguf, type GgufSummary } from './gguf.js';
import { readActiveModels, writeActiveModel, type ModelPurpose } from './schema.js';
import { ModelStore, modelPaths } from './store.js';
import { ModelSwitcher } from './switcher.js';

export interface ModelRuntimeDeps {
  db: Db;
  config: ConfigService;
  contextWindow: ContextWindow;
  /** The LLM and embedder plugins of the configuration, when there are any. */
  configuredLlm: LlmBackend | undefined;
  configuredEmbedder: EmbeddingProvider | undefined;
}

/**
 * Local models in one process: the store (MODELS_DIR and the catalogue), the switcher and the poll
 * that keeps this replica on the models the active_model table names. The models module starts one
 * in every server process (every role: API processes chat, worker processes embed while indexing).
 */
export class LocalModelRuntime implements ModelRuntime {
  readonly store: ModelStore;
  readonly switcher: ModelSwitcher;
  readonly #deps: ModelRuntimeDeps;
  readonly #logger: Logger;
  readonly #inspected = new Map<string, Promise<GgufSummary | null>>();
  #timer: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;

  private constructor(deps: ModelRuntimeDeps, logger: Logger, options: ModelRuntimeOptions) {
    this.#deps = deps;
    this.#logger = logger;
    const { config } = deps;
    this.store = new ModelStore(modelPaths((name) => config.get(name), config.dataDir, process.cwd()));
    this.switcher = new ModelSwitcher(deps, this.store, this.#logger, {
      retireGraceMs: options.retireGraceMs ?? 10_000,
    });
  }

  static async start(
    deps: ModelRuntimeDeps,
    logger: Logger,
    options: ModelRuntimeOptions = {},
  ): Promise<LocalModelRuntime> {
    const runtime = new LocalModelRuntime(deps, logger, options);
    if (options.loadModels === false) return runtime;
    // The inference server may load another model, or answer only after DocQA started: its context
    // then sets EFFECTIVE_N_CTX anew (unless a model chosen with `use` answers instead).
    const switcher = runtime.switcher;
    runtime.#unsubscribe =
      deps.configuredLlm?.onInfoChange?.(() => {
        switcher
          .exclusive(() => switcher.refreshContextWindow())
          .catch((error: unknown) => logger.warn({ err: error }, 'deriving EFFECTIVE_N_CTX again failed'));
      }) ?? null;
    await runtime.refresh();
    runtime.#explainMissingChatModel();
    const pollMs = (options.pollSeconds ?? 3) * 1000;
    let polling = false;
    runtime.#timer = setInterval(() => {
      // A poll waits behind a model being loaded; later ticks are skipped rather than queued.
      if (polling) return;
      polling = true;
      void runtime
        .refresh()
        .catch((error: unknown) => runtime.#logger.warn({ err: error }, 'reading the active models failed'))
        .finally(() => {
          polling = false;
        });
    }, pollMs);
    runtime.#timer.unref();
    return runtime;
  }

  /** Loads what the table names now (another replica's `use`); also runs on every poll. */
  refresh(): Promise<void> {
    return this.switcher.exclusive(async () => this.switcher.sync(await readActiveModels(this.#deps.db)));
  }

  async use(name: string | null, options: { purpose?: ModelPurpose; actor?: string | null } = {}): Promise<UseOutcome> {
    const db = this.#deps.db;
    if (name === null) {
      const purpose = options.purpose;
      if (!purpose)
        throw new DocqaError(
          'validation_failed',
          'Name the purpose (chat or embedding) to return to the configured model.',
        );
      return this.switcher.exclusive(async () => {
        const previous = this.switcher.loaded(purpose)?.model.name ?? null;
        await writeActiveModel(db, purpose, null, options.actor ?? null);
        await this.switcher.install(purpose, null);
        return { purpose, model: null, previous };
      });
    }
    const model = await this.store.require(name);
    const purpose = model.purpose;
    if (purpose === 'reranking')
      throw new DocqaError(
        'validation_failed',
        `${model.name} is a reranking model: it is not switched in with use; ` +
          `set RAG_RERANK_MODEL=${model.name} and RAG_RERANK_ENABLED=true.`,
      );
    if (options.purpose && options.purpose !== purpose)
      throw new DocqaError('validation_failed', `${model.name} is a ${purpose} model, not a ${options.purpose} model.`);
    if (purpose === 'chat' && this.#deps.config.get('LLM_BACKEND') === 'hosted') {
      throw new DocqaError(
        'conflict',
        'LLM_BACKEND=hosted: chat answers come from the hosted API, so a local chat ' +
          'model would not be used. Set LLM_BACKEND=local first.',
      );
    }
    return this.switcher.exclusive(async () => {
      const previous = this.switcher.loaded(purpose)?.model.name ?? null;
      const file = path.basename(model.path);
      if (this.switcher.loaded(purpose)?.file === file) {
        // In use already (a repeated `use`, say with --reembed): no second copy in memory.
        await writeActiveModel(db, purpose, { name: model.name, file }, options.actor ?? null);
        return { purpose, model, previous };
      }
      const loaded = await this.switcher.load(purpose, model);
      try {
        await writeActiveModel(db, purpose, { name: model.name, file }, options.actor ?? null);
      } catch (error) {
        await loaded.stop();
        throw error;
      }
      await this.switcher.install(purpose, loaded);
      return { purpose, model, previous };
    });
  }

  /** Null also when the model in effect is not a local file. */
  async details(purpose: ModelPurpose): Promise<ModelDetails | null> {
    const loaded = this.switcher.loaded(purpose);
    if (loaded)
      return {
        source: 'switched',
        name: loaded.model.name,
        file: loaded.file,
        path: loaded.model.path,
        gguf: loaded.model.gguf,
        license: loaded.model.license,
      };
    const { config } = this.#deps;
    const setting =
      purpose === 'chat'
        ? config.get('LLM_BACKEND') === 'local'
          ? config.get('LLM_MODEL_PATH')
          : undefined
        : config.get('EMBEDDING_MODEL_PATH');
    const configured = typeof setting === 'string' && setting !== '' ? setting : undefined;
    const present =
      (purpose === 'chat' ? this.#deps.configuredLlm : this.#deps.configuredEmbedder) !== undefined ||
      (purpose === 'embedding' && this.switcher.embedder() !== null);
    if (!configured || !present) return null;
    const gguf = await this.#inspect(configured);
    const file = path.basename(configured);
    return {
      source: 'configured',
      name: this.store.catalogue.byFile(file)?.name ?? file.replace(/\.gguf$/i, ''),
      file,
      path: configured,
      gguf,
      license: this.store.catalogue.byFile(file)?.license ?? gguf?.license ?? null,
    };
  }

  async close(): Promise<void> {
    this.#unsubscribe?.();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.switcher.close();
  }

  /** The configured files do not change while the process runs: read each header once. */
  #inspect(file: string): Promise<GgufSummary | null> {
    let summary = this.#inspected.get(file);
    if (!summary) {
      summary = inspectGguf(file).catch(() => null);
      this.#inspected.set(file, summary);
    }
    return summary;
  }

  /** One line at start when chat has no language model: what answers now, and how to get a model. */
  #explainMissingChatModel(): void {
    if (this.#deps.config.get('LLM_BACKEND') !== 'local' || this.switcher.chatBackend()) return;
    if (this.#deps.configuredLlm?.capabilities.generative) return;
    const suggested =
      this.store.catalogue.entries.find((entry) => entry.purpose === 'chat' && entry.recommended)?.name ?? '<name>';
    this.#logger.warn(
      'No chat model is installed: answers quote the best-matching passages (extractive) until ' +
        `one is. Get one with: docqa models pull ${suggested} && docqa models use ${suggested} ` +
        '(docqa models list shows the others; docs/models.md).',
    );
  }
}
