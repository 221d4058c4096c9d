import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '@docqa/plugin-api';
import { DocqaError, type EmbeddingProvider, type Logger } from '@docqa/plugin-api';
import type { LlamaCppEmbedderOptions } from './config.js';
import { fromThreadError, type FromEmbeddingThread, type ToEmbeddingThread } from './thread-protocol.js';

type Ready = Extract<FromEmbeddingThread, { type: 'ready' }>;

/** The thread's module; tests pass another that speaks the same messages. */
const embeddingThreadModule = new URL('./embedding-thread.js', import.meta.url);

/**
 * The thread's young generation: its garbage is a text's tokens and vector at a time, so 2 MB
 * (the extraction workers' 6 MB less) is plenty, and every megabyte of it stays resident once used.
 */
const threadLimits = { maxYoungGenerationSizeMb: 2 };

/** How long a stopping thread may take to release the model before it is terminated. */
const stopGraceMs = 10_000;

/** One embedding thread (embedding-thread.ts) and the requests it has not answered yet. */
class ThreadConnection {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: unknown): void }>();
  readonly #exited: Promise<void>;
  #nextId = 1;
  #stopping = false;
  /** Why the thread ended on its own, once it has. */
  ended: DocqaError | null = null;
  readonly ready: Promise<Ready>;

  constructor(module: URL, options: LlamaCppEmbedderOptions, spaceModel: string, logger: Logger) {
    this.#worker = startModuleWorker(module, threadLimits);
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => resolve()));
    this.ready = new Promise<Ready>((resolve, reject) => {
      this.#worker.on('message', (message: FromEmbeddingThread) => {
        switch (message.type) {
          case 'ready':
            if (this.#pending.size === 0) this.#worker.unref();
            resolve(message);
            break;
          case 'log':
            logger[message.level](message.fields, message.message);
            break;
          case 'embedded':
            this.#pending.get(message.id)?.resolve(message.vectors);
            break;
          case 'failed':
            if (message.id === null) reject(fromThreadError(message.error));
            else this.#pending.get(message.id)?.reject(fromThreadError(message.error));
            break;
        }
      });
      const end = (error: DocqaError) => {
        this.ended ??= error;
        reject(error);
        for (const request of [...this.#pending.values()]) request.reject(error);
      };
      this.#worker.on('error', (error) =>
        end(new DocqaError('unavailable', `the embedding thread failed: ${error.message}`, { cause: error })),
      );
      this.#worker.on('exit', (code) => {
        if (!this.#stopping)
          end(new DocqaError('unavailable', `the embedding thread ended unexpectedly (exit code ${code})`));
      });
    });
    this.#send({ type: 'start', options, spaceModel });
  }

  #send(message: ToEmbeddingThread): void {
    this.#worker.postMessage(message);
  }

  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.#nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      const settle = () => {
        this.#pending.delete(id);
        signal?.removeEventListener('abort', abort);
        // An idle thread does not keep the process alive; one with work does, or a CLI command could exit before its answer.
        if (this.#pending.size === 0) this.#worker.unref();
      };
      const abort = () => {
        settle();
        this.#send({ type: 'cancel', id });
        reject(signal!.reason);
      };
      this.#pending.set(id, {
        resolve: (vectors) => {
          settle();
          resolve(vectors);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      signal?.addEventListener('abort', abort, { once: true });
      this.#worker.ref();
      this.#send({ type: 'embed', id, texts: [...texts] });
    });
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#send({ type: 'stop' });
    const timer = setTimeout(() => {
      this.#worker.terminate().catch(() => undefined);
    }, stopGraceMs);
    await this.#exited;
    clearTimeout(timer);
  }
}

export interface EmbeddingThread {
  provider: EmbeddingProvider;
  contextSize: number;
  /** `cpu`, `cuda`, `vulkan` or `metal`: where the model computes. */
  device: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedding thread, waits until its model is loaded, and answers a provider that sends
 * it the texts. A thread that ended on its own (a crash) is started again at the next call; the
 * calls it had not answered fail with `unavailable`, so an ingest job retries.
 */
export async function startEmbeddingThread(
  options: LlamaCppEmbedderOptions,
  spaceModel: string,
  logger: Logger,
  module = embeddingThreadModule,
): Promise<EmbeddingThread> {
  let connection = new ThreadConnection(module, options, spaceModel, logger);
  let ready: Ready;
  try {
    ready = await connection.ready;
  } catch (error) {
    await connection.stop();
    throw error;
  }
  let restarting: Promise<ThreadConnection> | null = null;
  const restart = () =>
    (restarting ??= (async () => {
      logger.warn({ reason: connection.ended?.message }, 'starting the embedding thread again');
      const next = new ThreadConnection(module, options, spaceModel, logger);
      await next.ready;
      connection = next;
      return next;
    })().finally(() => {
      restarting = null;
    }));
  const provider: EmbeddingProvider = {
    space: { model: spaceModel, dimensions: ready.dimensions },
    maxInputTokens: ready.maxInputTokens,
    device: ready.device,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      if (texts.length === 0) return [];
      const current = connection.ended ? await restart() : connection;
      return current.embed(texts, signal);
    },
  };
  return { provider, contextSize: ready.contextSize, device: ready.device, stop: () => connection.stop() };
}
