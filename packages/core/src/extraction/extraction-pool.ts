import type { Worker } from 'node:worker_threads';
import { DocqaError, errorStatus, type ErrorCode, type ExtractedDocument, type ExtractorInput } from '@docqa/plugin-api';
import { startModuleWorker } from '../workers/module-worker.js';
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
 * INDEX_EXTRACTION_WORKERS worker threads that run extractors, so a slow or crashing parser never
 * blocks the server or takes it down. A task that is cancelled or overruns `timeoutMs` has its
 * worker terminated (the only way to stop a running parser) and replaced.
 */
export class ExtractionPool {
  readonly #slots: Slot[];
  readonly #queue: Task[] = [];
  readonly #timeoutMs: number;
  #nextId = 1;
  #closed = false;

  constructor(size: number, options: { timeoutMs?: number } = {}) {
    this.#slots = Array.from({ length: Math.max(1, size) }, () => ({ worker: spawn(), busy: false }));
    this.#timeoutMs = options.timeoutMs ?? 10 * 60_000;
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
    for (const task of this.#queue.splice(0)) task.reject(new DocqaError('unavailable', 'The extraction pool is closing.'));
    await Promise.all(this.#slots.map(async (slot) => (await slot.worker.catch(() => null))?.terminate()));
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (slot.busy) continue;
      const task = this.#queue.shift();
      if (!task) return;
      slot.busy = true;
      void this.#run(slot, task).finally(() => {
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
      slot.worker = spawn();
      return task.reject(new DocqaError('unavailable', `An extraction worker could not start: ${(error as Error).message}`));
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
          void worker.terminate();
          slot.worker = spawn();
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
        task.reject(new DocqaError('unsupported_media_type', `${task.input.filename} could not be read: the extractor crashed (${error.message}).`));
      };
      const onExit = () => onError(new Error('worker exited'));
      const onAbort = () => {
        finish(true);
        task.reject(task.signal.reason);
      };
      const timer = setTimeout(() => {
        finish(true);
        task.reject(new DocqaError('unsupported_media_type', `${task.input.filename} took longer than ${Math.round(this.#timeoutMs / 1000)} s to read; it was given up.`));
      }, this.#timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      task.signal.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, workerModule: task.workerModule, input: task.input } satisfies ExtractionRequest);
    });
  }
}

function spawn(): Promise<Worker> {
  const worker = startModuleWorker(new URL('./extraction-worker.js', import.meta.url));
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
