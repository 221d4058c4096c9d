import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '@docqa/plugin-api';
import type { FoundMatch, MatchReply, MatchRequest } from './rule-worker.js';

export type MatchOutcome = { matches: FoundMatch[] } | { error: string };

const WORKER_START_TIMEOUT_MS = 30_000;

/**
 * Runs regular expressions in a pool of one reusable worker thread, each under a deadline. The worker
 * is spawned on first use; when a pattern overruns its budget the worker is terminated (the only way
 * to stop a running `exec`) and a fresh one is spawned for the next request. Requests are served one
 * at a time. Call `close()` when done; an idle worker does not keep the process alive.
 */
export class RuleRunner {
  private worker: Promise<Worker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;

  /** Matches `source` over `text`, or reports `timed out after N ms` / the worker's error. */
  match(request: Omit<MatchRequest, 'id'>, budgetMs: number): Promise<MatchOutcome> {
    const result = this.queue.then(() => this.matchNow(request, budgetMs));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  private async matchNow(request: Omit<MatchRequest, 'id'>, budgetMs: number): Promise<MatchOutcome> {
    if (this.closed) throw new Error('The rule runner is closed.');
    const worker = await (this.worker ??= startWorker());
    const id = this.nextId++;
    return new Promise<MatchOutcome>((resolve) => {
      const finish = (outcome: MatchOutcome, discardWorker: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (discardWorker) {
          this.worker = undefined;
          terminateQuietly(worker);
        }
        resolve(outcome);
      };
      const onMessage = (reply: MatchReply) => {
        if (reply.id !== id) return;
        finish('error' in reply ? { error: reply.error } : { matches: reply.matches }, false);
      };
      const onError = (error: Error) => finish({ error: `the matching worker failed: ${error.message}` }, true);
      const timer = setTimeout(() => finish({ error: `timed out after ${budgetMs} ms` }, true), budgetMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ ...request, id } satisfies MatchRequest);
    });
  }
}

function startWorker(): Promise<Worker> {
  const worker = createWorker();
  worker.unref();
  return new Promise<Worker>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error('the matching worker did not start in time')),
      WORKER_START_TIMEOUT_MS,
    );
    const cleanUp = () => {
      clearTimeout(timer);
      worker.off('message', onReady);
      worker.off('error', fail);
    };
    const onReady = (message: { ready?: boolean }) => {
      if (!message.ready) return;
      cleanUp();
      resolve(worker);
    };
    const fail = (error: Error) => {
      cleanUp();
      terminateQuietly(worker);
      reject(error);
    };
    worker.on('message', onReady);
    worker.on('error', fail);
  });
}

function createWorker(): Worker {
  return startModuleWorker(new URL('./rule-worker.js', import.meta.url));
}

/** Ends a worker we are done with; its exit code tells nothing we would act on. */
function terminateQuietly(worker: Worker): void {
  worker.terminate().catch(() => undefined);
}
