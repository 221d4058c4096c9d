import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type { ConfigService, ContextWindow, EmbeddingProvider, LlmBackend, Logger } from '@docqa/plugin-api';
import embedderLlamacpp, { llamaCppEmbedderDeviceFromVariables } from '@docqa/plugin-embedder-llamacpp';
import llmLlamacpp, { llamaCppLlmOptionsFromVariables } from '@docqa/plugin-llm-llamacpp';
import { embeddingThreads, inferenceThreads } from '../../inference-threads.js';
import type { ActiveModelRow, ModelPurpose } from './schema.js';
import type { InstalledModel, ModelStore } from './store.js';

/** A model this process loaded itself, wrapped to know when nobody uses it any more. */
export interface LoadedModel<T> {
  model: InstalledModel;
  /** The file's name in MODELS_DIR, as the active_model table names it. */
  file: string;
  provider: T;
  inFlight(): number;
  stop(): Promise<void>;
}

export interface SwitcherOptions {
  /**
   * How long a replaced model stays loaded at least: a chat that took the old backend a moment
   * before the switch (and is still retrieving) generates with it rather than failing.
   */
  retireGraceMs: number;
}

type Slot = { chat: LoadedModel<LlmBackend> | null; embedding: LoadedModel<EmbeddingProvider> | null };

/**
 * Loads the models chosen with `docqa models use` in this process, through the same plugin
 * factories the kernel uses (llm-llamacpp, embedder-llamacpp), and swaps them in without a
 * restart. The model it replaces is stopped once no request uses it. Loads and swaps run one at a
 * time, so a poll and a `use` cannot undo each other.
 */
export class ModelSwitcher {
  readonly #slots: Slot = { chat: null, embedding: null };
  /** The file that failed to load per purpose: not retried on every poll, and logged once. */
  readonly #failed = new Map<ModelPurpose, string>();
  readonly #retiring = new Set<Promise<void>>();
  readonly #closing = new AbortController();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      config: ConfigService;
      contextWindow: ContextWindow;
      configuredLlm: LlmBackend | undefined;
    },
    private readonly store: ModelStore,
    private readonly logger: Logger,
    private readonly options: SwitcherOptions,
  ) {}

  chatBackend(): LlmBackend | null {
    return this.#slots.chat?.provider ?? null;
  }

  embedder(): EmbeddingProvider | null {
    return this.#slots.embedding?.provider ?? null;
  }

  loaded(purpose: ModelPurpose): LoadedModel<unknown> | null {
    return this.#slots[purpose];
  }

  /** Runs `work` after every load or swap queued before it, and before any queued after. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Brings this process in line with the table: loads what differs, drops what was unset. Call inside exclusive(). */
  async sync(rows: Map<ModelPurpose, ActiveModelRow>): Promise<void> {
    for (const purpose of ['chat', 'embedding'] as const) {
      const row = rows.get(purpose);
      const current = this.#slots[purpose];
      if (!row) {
        this.#failed.delete(purpose);
        if (current) await this.install(purpose, null);
        continue;
      }
      if (current?.file === row.file || this.#failed.get(purpose) === row.file) continue;
      try {
        const model = await this.store.find(row.file);
        if (!model)
          throw new Error(
            `${path.join(this.store.dir, row.file)} is missing on this replica ` +
              '(pull it here, or share MODELS_DIR between replicas)',
          );
        await this.install(purpose, await this.load(purpose, model));
        this.#failed.delete(purpose);
      } catch (error) {
        this.#failed.set(purpose, row.file);
        this.logger.error(
          { err: error, purpose, model: row.name },
          `cannot load the ${purpose} model ${row.name} chosen with docqa models use; ` +
            `keeping the one in use: ${(error as Error).message}`,
        );
      }
    }
  }

  /** Loads a model with its plugin's factory; not yet in use (see install). */
  async load(
    purpose: ModelPurpose,
    model: InstalledModel,
  ): Promise<LoadedModel<LlmBackend> | LoadedModel<EmbeddingProvider>> {
    const stopHooks: Array<() => unknown> = [];
    const controller = new AbortController();
    const context = {
      instanceId: `models-${purpose}`,
      deps: {},
      logger: this.logger.child({
        plugin: purpose === 'chat' ? 'llm-llamacpp' : 'embedder-llamacpp',
        model: model.name,
      }),
      onStop: (hook: () => unknown) => void stopHooks.push(hook),
      signal: controller.signal,
    };
    const stop = async () => {
      controller.abort();
      for (const hook of stopHooks.splice(0).reverse()) await hook();
    };
    const counter = { n: 0 };
    const common = { model, file: path.basename(model.path), inFlight: () => counter.n, stop };
    try {
      if (purpose === 'chat') {
        // The options the standard preset gives the kernel's instance (N_CTX, N_THREADS, ...), another file.
        const variable = (name: string) => this.deps.config.get(name);
        const options = llmLlamacpp.configSchema.parse({
          ...llamaCppLlmOptionsFromVariables(variable),
          threads: inferenceThreads(variable),
          modelPath: model.path,
        });
        const backend = await llmLlamacpp.init({ ...context, options });
        return { ...common, provider: trackedBackend(backend, counter, model.license) };
      }
      // modelPath, threads and device, as the preset gives them: the same file gets the same embedding
      // space either way.
      const variable = (name: string) => this.deps.config.get(name);
      const options = embedderLlamacpp.configSchema.parse({
        modelPath: model.path,
        threads: embeddingThreads(variable),
        ...llamaCppEmbedderDeviceFromVariables(variable),
      });
      const embedder = await embedderLlamacpp.init({ ...context, options });
      return { ...common, provider: trackedEmbedder(embedder, counter) };
    } catch (error) {
      await stop().catch(() => undefined);
      throw error;
    }
  }

  /** Puts `next` in use for `purpose` (null: back to the configured model) and retires the previous one. */
  async install(
    purpose: ModelPurpose,
    next: LoadedModel<LlmBackend> | LoadedModel<EmbeddingProvider> | null,
  ): Promise<void> {
    const previous = this.#slots[purpose];
    if (purpose === 'chat') this.#slots.chat = next as LoadedModel<LlmBackend> | null;
    else this.#slots.embedding = next as LoadedModel<EmbeddingProvider> | null;
    if (purpose === 'chat') this.deps.contextWindow.set(await this.#effectiveNCtx());
    this.logger.info(
      { purpose, model: next?.model.name ?? null, previous: previous?.model.name ?? null },
      next ? `now using the ${purpose} model ${next.model.name}` : `back to the configured ${purpose} model`,
    );
    if (previous) this.#retire(previous);
  }

  async close(): Promise<void> {
    this.#closing.abort();
    await this.#queue.catch(() => undefined);
    for (const purpose of ['chat', 'embedding'] as const) {
      const loaded = this.#slots[purpose];
      this.#slots[purpose] = null;
      if (loaded) this.#retire(loaded);
    }
    await Promise.allSettled([...this.#retiring]);
  }

  /** EFFECTIVE_N_CTX anew, after the configured backend's model changed (its server loaded another). In exclusive(). */
  async refreshContextWindow(): Promise<void> {
    this.deps.contextWindow.set(await this.#effectiveNCtx());
  }

  /** EFFECTIVE_N_CTX as the kernel derives it, for the chat model now in use. */
  async #effectiveNCtx(): Promise<number> {
    const requested = Number(this.deps.config.get('N_CTX'));
    const backend = this.chatBackend() ?? this.deps.configuredLlm ?? null;
    const info = backend ? await backend.info() : null;
    if (info?.contextLength != null && info.contextLength < requested) {
      this.logger.warn(
        { n_ctx: requested, model_context: info.contextLength },
        `N_CTX=${requested} is above what model ${info.model} supports; EFFECTIVE_N_CTX is ${info.contextLength}.`,
      );
      return info.contextLength;
    }
    return requested;
  }

  /** Stops a replaced model after the grace period, once its last request ended (or at shutdown). */
  #retire(loaded: LoadedModel<unknown>): void {
    const closing = this.#closing.signal;
    const longest = this.options.retireGraceMs + Number(this.deps.config.get('INFERENCE_TIMEOUT_SECONDS')) * 1000;
    const done = (async () => {
      const started = Date.now();
      await sleep(this.options.retireGraceMs, undefined, { signal: closing }).catch(() => undefined);
      while (loaded.inFlight() > 0 && !closing.aborted && Date.now() - started < longest)
        await sleep(100, undefined, { signal: closing }).catch(() => undefined);
      await loaded
        .stop()
        .catch((error: unknown) =>
          this.logger.warn({ err: error, model: loaded.model.name }, 'unloading a replaced model failed'),
        );
    })();
    this.#retiring.add(done);
    // `done` catches its own failures; the catch is for the rule that no promise floats.
    done.finally(() => this.#retiring.delete(done)).catch(() => undefined);
  }
}

/** Counts generations under way; adds the licence the catalogue or the GGUF header gives. */
function trackedBackend(backend: LlmBackend, counter: { n: number }, license: string | null): LlmBackend {
  return {
    capabilities: backend.capabilities,
    async info() {
      const info = await backend.info();
      return { ...info, ...(license && !info.license ? { license } : {}) };
    },
    async *generate(request, signal) {
      counter.n++;
      try {
        yield* backend.generate(request, signal);
      } finally {
        counter.n--;
      }
    },
    ...(backend.countTokens ? { countTokens: (text: string) => backend.countTokens!(text) } : {}),
  };
}

function trackedEmbedder(embedder: EmbeddingProvider, counter: { n: number }): EmbeddingProvider {
  return {
    space: embedder.space,
    maxInputTokens: embedder.maxInputTokens,
    ...(embedder.device === undefined ? {} : { device: embedder.device }),
    async embed(texts, signal) {
      counter.n++;
      try {
        return await embedder.embed(texts, signal);
      } finally {
        counter.n--;
      }
    },
  };
}
