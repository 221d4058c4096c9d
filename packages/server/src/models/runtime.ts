import path from 'node:path';
import { DocqaError, providerTokens, type Logger } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { inspectGguf, type GgufSummary } from './gguf.js';
import { readActiveModels, writeActiveModel, type ModelPurpose } from './schema.js';
import { ModelStore, kernelModelPaths, type InstalledModel } from './store.js';
import { ModelSwitcher } from './switcher.js';

export interface ModelRuntimeOptions {
  /** How often this process looks for a model chosen on another replica. */
  pollSeconds?: number;
  /** How long a replaced model stays loaded at least (see SwitcherOptions). */
  retireGraceMs?: number;
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

/**
 * Local models in one process: the store (MODELS_DIR and the catalogue), the switcher and the poll
 * that keeps this replica on the models the active_model table names. Start one per server
 * process (every role: API processes chat, worker processes embed while indexing).
 */
/**
 * Which kernel runs which model runtime. A lookup rather than a constructor argument, so the chat,
 * search and ingestion code asks "is there a switched model?" in one line without new wiring, and
 * a kernel without a runtime (tests, tools) keeps the models of its configuration.
 */
const runtimes = new WeakMap<Kernel, ModelRuntime>();

export function modelRuntimeOf(kernel: Kernel): ModelRuntime | undefined {
  return runtimes.get(kernel);
}

export class ModelRuntime {
  readonly store: ModelStore;
  readonly switcher: ModelSwitcher;
  readonly #kernel: Kernel;
  readonly #logger: Logger;
  readonly #inspected = new Map<string, Promise<GgufSummary | null>>();
  #timer: NodeJS.Timeout | null = null;

  private constructor(kernel: Kernel, options: ModelRuntimeOptions) {
    this.#kernel = kernel;
    this.#logger = kernel.logger.child({ component: 'models' });
    this.store = new ModelStore(kernelModelPaths(kernel));
    this.switcher = new ModelSwitcher(kernel, this.store, this.#logger, {
      retireGraceMs: options.retireGraceMs ?? 10_000,
    });
  }

  static async start(kernel: Kernel, options: ModelRuntimeOptions = {}): Promise<ModelRuntime> {
    const runtime = new ModelRuntime(kernel, options);
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
    runtimes.set(kernel, runtime);
    return runtime;
  }

  /** Loads what the table names now (another replica's `use`); also runs on every poll. */
  refresh(): Promise<void> {
    return this.switcher.exclusive(async () => this.switcher.sync(await readActiveModels(this.#kernel.db)));
  }

  /**
   * Makes an installed model the one in use for its purpose, on this replica at once (it is loaded
   * before anything is stored, so a model that cannot load changes nothing) and on the others
   * within the poll interval. `name` null returns `purpose` to the configured model.
   */
  async use(name: string | null, options: { purpose?: ModelPurpose; actor?: string | null } = {}): Promise<UseOutcome> {
    const db = this.#kernel.db;
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
    if (options.purpose && options.purpose !== purpose)
      throw new DocqaError('validation_failed', `${model.name} is a ${purpose} model, not a ${options.purpose} model.`);
    if (purpose === 'chat' && this.#kernel.config.values.LLM_BACKEND === 'hosted') {
      throw new DocqaError(
        'conflict',
        `LLM_BACKEND=hosted: chat answers come from the hosted API, so a local chat model would not be used. Set LLM_BACKEND=local first.`,
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

  /** The chat or embedding model in effect and where it came from; null when there is none (or it is not a local file). */
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
    const values = this.#kernel.config.values;
    const configured =
      purpose === 'chat'
        ? values.LLM_BACKEND === 'local'
          ? values.LLM_MODEL_PATH
          : undefined
        : values.EMBEDDING_MODEL_PATH;
    const present =
      this.#kernel.container.has(purpose === 'chat' ? providerTokens.llm : providerTokens.embedder) ||
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
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (runtimes.get(this.#kernel) === this) runtimes.delete(this.#kernel);
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
    const kernel = this.#kernel;
    if (kernel.config.values.LLM_BACKEND !== 'local' || this.switcher.chatBackend()) return;
    if (kernel.container.has(providerTokens.llm) && kernel.resolve(providerTokens.llm).capabilities.generative) return;
    const suggested =
      this.store.catalogue.entries.find((entry) => entry.purpose === 'chat' && entry.recommended)?.name ?? '<name>';
    this.#logger.warn(
      `No chat model is installed: answers quote the best-matching passages (extractive) until one is. Get one with: docqa models pull ${suggested} && docqa models use ${suggested} (docqa models list shows the others; docs/models.md).`,
    );
  }
}
