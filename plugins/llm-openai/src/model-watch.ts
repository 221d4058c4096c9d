import type { GuardedFetch, Logger } from '@docqa/plugin-api';
import type { LlmOpenAiOptions } from './config.js';
import { readServerModel, type ServerModel } from './server-model.js';

/**
 * What the server last said about its model, read at start and, with contextPollSeconds, again
 * on a timer: the inference server may start after DocQA (it answers 503 while loading) or be
 * restarted with another model. Listeners hear of every change, so EFFECTIVE_N_CTX follows.
 */
export class ServerModelWatch {
  #known: ServerModel = { model: null, contextLength: null };
  #timer: NodeJS.Timeout | null = null;
  #reading = false;
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly fetch: GuardedFetch,
    private readonly options: LlmOpenAiOptions,
    private readonly baseUrl: string,
    private readonly logger: Logger,
  ) {}

  get known(): ServerModel {
    return this.#known;
  }

  /** Reads once; the first read is awaited by start-up, later ones run on the timer. */
  async read(): Promise<void> {
    if (this.#reading) return;
    this.#reading = true;
    try {
      const read = await readServerModel(this.fetch, this.options, this.baseUrl);
      if (!read) {
        if (this.#known.contextLength === null)
          this.logger.debug({ endpoint: this.baseUrl }, 'the model server did not say its context window (yet)');
        return;
      }
      const changed = read.model !== this.#known.model || read.contextLength !== this.#known.contextLength;
      if (!changed) return;
      const previous = this.#known;
      this.#known = read;
      this.logger.info(
        { endpoint: this.baseUrl, model: read.model, contextLength: read.contextLength, previous },
        'the model server reports its model',
      );
      for (const listener of this.#listeners) listener();
    } finally {
      this.#reading = false;
    }
  }

  start(pollSeconds: number): void {
    if (pollSeconds <= 0) return;
    this.#timer = setInterval(() => void this.read().catch(() => undefined), pollSeconds * 1000);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
