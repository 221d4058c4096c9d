import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '@docqa/plugin-api';
import type { FoundMatch, MatchReply, MatchRequest } from './rule-worker.js';

export interface RuleBudget {
  baseMs: number;
  msPerMillionCharacters: number;
}

export type MatchOutcome = { matches: FoundMatch[] } | { error: string };

const WORKER_START_TIMEOUT_MS = 30_000;

/**
 * Runs regular expressions in a pool of one reusable worker thread, each within a budget of the
 * worker thread's own CPU time. CPU time, not the wall clock: on a loaded machine (a busy event loop
 * here, other threads and processes on the cores) a harmless pattern waits longer but does no more
 * work, and waiting is not what the budget is for; only a pattern that itself does too much work,
 * such as one that backtracks catastrophically, runs out of it. The worker is spawned on first use;
 * when a pattern overruns its budget the worker is terminated (the only way to stop a running `exec`)
 * and a fresh one is spawned for the next request. Requests are served one at a time. Call `close()`
 * when done; an idle worker does not keep the process alive.
 */
export class RuleRunner {
  /**
   * The CPU budget of one match: `baseMs` plus `msPerMillionCharacters` for the text's length
   * (RULE_CPU_BUDGET_MS, RULE_CPU_MS_PER_MILLION_CHARACTERS where the server makes the runner).
   */
  readonly budget: RuleBudget;
  private worker: Promise<Worker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;

  constructor(budget: Partial<RuleBudget> = {}) {
    this.budget = { baseMs: budget.baseMs ?? 50, msPerMillionCharacters: budget.msPerMillionCharacters ?? 200 };
  }

  /** Matches `source` over `text`, or reports `its pattern used more than N ms of CPU time` or the worker's error. */
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
    let worker = await (this.worker ??= startWorker());
    let meter = await cpuMeter(worker).catch(() => null);
    if (!meter) {
      // The idle worker has died (its CPU time cannot be read): the match gets a fresh one.
      terminateQuietly(worker);
      worker = await (this.worker = startWorker());
      meter = await cpuMeter(worker);
    }
    const id = this.nextId++;
    return new Promise<MatchOutcome>((resolve) => {
      let done = false;
      const finish = (outcome: MatchOutcome, discardWorker: boolean) => {
        if (done) return;
        done = true;
        clearInterval(timer);
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
      // Polled, not awaited in turn: a reply that arrives meanwhile wins, whatever the meter says.
      const check = (): void => {
        meter.spentMs().then(
          (spent) => {
            if (spent > budgetMs) finish({ error: `its pattern used more than ${budgetMs} ms of ${meter.kind}` }, true);
          },
          () => undefined, // the worker has gone: its 'error' or reply settles this match
        );
      };
      const timer = setInterval(check, Math.max(5, Math.min(50, budgetMs / 4)));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ ...request, id } satisfies MatchRequest);
    });
  }
}

interface CpuMeter {
  /** What is measured, for the message of a match that overran. */
  kind: string;
  /** What the match has spent of it so far. */
  spentMs(): Promise<number>;
}

/**
 * The worker thread's CPU time from now on (`worker.cpuUsage()`, Node.js 22.19 and 24.6 on). An
 * older Node.js has no way to read another thread's CPU time: there the budget falls back to the
 * wall clock, as before.
 */
async function cpuMeter(worker: Worker): Promise<CpuMeter> {
  const usage = (worker as WorkerWithCpuUsage).cpuUsage?.bind(worker);
  if (!usage) {
    const start = performance.now();
    return { kind: 'time', spentMs: () => Promise.resolve(performance.now() - start) };
  }
  const start = await usage();
  return {
    kind: 'CPU time',
    spentMs: async () => {
      const spent = await usage(start);
      return (spent.user + spent.system) / 1000;
    },
  };
}

type WorkerWithCpuUsage = Worker & {
  cpuUsage?: (previous?: NodeJS.CpuUsage) => Promise<NodeJS.CpuUsage>;
};

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
