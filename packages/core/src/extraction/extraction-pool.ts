import type { ResourceLimits, Worker } from 'node:worker_threads';
import {
  DocqaError,
  errorStatus,
  type ErrorCode,
  type ExtractedDocument,
  type ExtractorInput,
} from '@docqa/plugin-api';
import { startModuleWorker, workerLimits } from '@docqa/plugin-api';
import type { ExtractionReply, ExtractionRequest } from './extraction-worker.js';

interface Task {
  workerModule: string;
  input: ExtractorInput;
  signal: AbortSignal;
  resolve(document: ExtractedDocument): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Promise<Worker>;
  busy: boolean;
}

/**
 * The JavaScript heap one extraction worker may use unless the pool is told otherwise: the default
 * of INDEX_EXTRACTION_WORKER_HEAP_MB, which the server passes as `heapLimitMb`.
 */
export const defaultExtractionHeapLimitMb = 1024;

export interface ExtractionPoolOptions {
  /**
   * Most time one document may take; the worker is then terminated and replaced. The server passes
   * INDEX_EXTRACTION_TIMEOUT_SECONDS; its default is this one.
   */
  timeoutMs?: number;
  /**
   * Most JavaScript heap (V8 old generation) of each worker thread, in MB. A document whose parser
   * needs more (a zip bomb past the extractors' own checks) kills its worker alone: the document
   * fails with an error naming the limit, the worker is replaced, and the process stays within its
   * memory budget instead of growing to several GB.
   */
  heapLimitMb?: number;
}

/**
 * INDEX_EXTRACTION_WORKERS worker threads that run extractors, so a slow, crashing or memory-hungry
 * parser never blocks the server or takes it down. A task that is cancelled, overruns `timeoutMs` or
 * runs out of its worker's heap has its worker terminated (the only way to stop a running parser)
 * and replaced.
 */
export class ExtractionPool {
  readonly #slots: Slot[];
  readonly #queue: Task[] = [];
  readonly #timeoutMs: number;
  readonly #heapLimitMb: number;
  #nextId = 1;
  #closed = false;

  constructor(size: number, options: ExtractionPoolOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 10 * 60_000;
    this.#heapLimitMb = options.heapLimitMb ?? defaultExtractionHeapLimitMb;
    this.#slots = Array.from({ length: Math.max(1, size) }, () => ({ worker: this.#spawn(), busy: false }));
  }

  extract(workerModule: string, input: ExtractorInput, signal: AbortSignal): Promise<ExtractedDocument> {
    if (this.#closed) return Promise.reject(new DocqaError('unavailable', 'The extraction pool is closed.'));
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      this.#queue.push({ workerModule, input, signal, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#queue.splice(0))
      task.reject(new DocqaError('unavailable', 'The extraction pool is closing.'));
    await Promise.all(this.#slots.map(async (slot) => (await slot.worker.catch(() => null))?.terminate()));
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.busy) continue;
      const task = this.#queue.shift();
      if (!task) return;
      slot.busy = true;
      this.#run(slot, task)
        .catch((error: unknown) => task.reject(error))
        .finally(() => {
          slot.busy = false;
          this.#dispatch();
        });
    }
  }

  async #run(slot: Slot, task: Task): Promise<void> {
    if (task.signal.aborted) return task.reject(task.signal.reason);
    let worker: Worker;
    try {
      worker = await slot.worker;
    } catch (error) {
      slot.worker = this.#spawn();
      return task.reject(
        new DocqaError('unavailable', `An extraction worker could not start: ${(error as Error).message}`),
      );
    }
    const id = this.#nextId++;
    await new Promise<void>((done) => {
      const finish = (discard: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        task.signal.removeEventListener('abort', onAbort);
        if (discard && !this.#closed) {
          worker.terminate().catch(() => undefined);
          slot.worker = this.#spawn();
        }
        done();
      };
      const onMessage = (reply: ExtractionReply) => {
        if (reply.id !== id) return;
        finish(false);
        if ('document' in reply) task.resolve(reply.document);
        else task.reject(rebuildError(reply.error));
      };
      const onError = (error: Error) => {
        finish(true);
        task.reject(this.#crashError(task.input.filename, error));
      };
      const onExit = () => onError(new Error('worker exited'));
      const onAbort = () => {
        finish(true);
        task.reject(task.signal.reason);
      };
      const timer = setTimeout(() => {
        finish(true);
        // file_too_large, as the PDF extractor's own time limit: the document is too big to read in time.
        task.reject(
          new DocqaError(
            'file_too_large',
            `${task.input.filename} took longer than ${Math.round(this.#timeoutMs / 1000)} s to read ` +
              '(INDEX_EXTRACTION_TIMEOUT_SECONDS); it was given up.',
            { extra: { limit: 'INDEX_EXTRACTION_TIMEOUT_SECONDS' } },
          ),
        );
      }, this.#timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      task.signal.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, workerModule: task.workerModule, input: task.input } satisfies ExtractionRequest);
    });
  }

  #crashError(filename: string, error: Error): DocqaError {
    if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new DocqaError(
        'file_too_large',
        `${filename} needs more memory to read than an extraction worker may use (INDEX_EXTRACTION_WORKER_HEAP_MB, ` +
          `${this.#heapLimitMb} MB); it was given up.`,
        { extra: { limit: 'INDEX_EXTRACTION_WORKER_HEAP_MB' } },
      );
    }
    const message = `${filename} could not be read: the extractor crashed (${error.message}).`;
    return new DocqaError('unsupported_media_type', message);
  }

  /**
   * The worker is kept as a promise until a task needs it. A worker that fails to start is reported
   * to that task (#run awaits it); until then its rejection is marked handled, or it would count as
   * unhandled, which ends a process that has no guard.
   */
  #spawn(): Promise<Worker> {
    const starting = spawn({ ...workerLimits, maxOldGenerationSizeMb: this.#heapLimitMb });
    starting.catch(() => undefined);
    return starting;
  }
}

function spawn(resourceLimits: ResourceLimits): Promise<Worker> {
  const worker = startModuleWorker(new URL('./extraction-worker.js', import.meta.url), resourceLimits);
  worker.unref();
  return new Promise((resolve, reject) => {
    const onMessage = (message: { ready?: boolean }) => {
      if (!message.ready) return;
      worker.off('error', reject);
      worker.off('message', onMessage);
      resolve(worker);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

function rebuildError(error: { code: string | null; message: string }): DocqaError {
  const code = error.code && error.code in errorStatus ? (error.code as ErrorCode) : 'unsupported_media_type';
  return new DocqaError(code, error.message);
}
