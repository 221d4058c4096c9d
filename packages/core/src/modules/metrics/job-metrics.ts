import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { JobActivity, JobRunEvent, UnfinishedJobCount } from '@docqa/plugin-api';

/** Seconds; from a one-page ingest to an hours-long sync or model download. */
const durationBuckets = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600];

/** A scrape must stay quick: past this the queue depth is left out of the answer (see docqa_job_queue_depth_up). */
export const queueDepthTimeoutMs = 2000;

/** pg-boss's own queues (its `send-it` bookkeeping), not DocQA's work. */
const internalQueuePrefix = '__pgboss__';

/** The job kinds of GET /api/jobs: the queue's name, except sync jobs, which carry theirs. */
const syncKinds = new Set(['scan', 'sync', 'sync_all']);
export function jobKind(queue: string, data: unknown): string {
  const kind = (data as { kind?: unknown } | null)?.kind;
  return queue === 'sync' && typeof kind === 'string' && syncKinds.has(kind) ? kind : queue;
}

/**
 * Jobs run by this process (started, finished, durations by kind and outcome) and, at scrape time,
 * the queue depth of the whole installation from one grouped count in the database.
 */
export class JobMetrics {
  readonly #started: Counter<'kind'>;
  readonly #finished: Counter<'kind' | 'outcome'>;
  readonly #duration: Histogram<'kind' | 'outcome'>;
  readonly #stopListening: () => void;

  constructor(registry: Registry, jobs: JobActivity) {
    this.#started = new Counter({
      name: 'docqa_jobs_started_total',
      help: 'Jobs this process started, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    });
    this.#finished = new Counter({
      name: 'docqa_jobs_finished_total',
      help: 'Jobs this process finished, by kind and outcome (succeeded, failed, cancelled, interrupted).',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    });
    this.#duration = new Histogram({
      name: 'docqa_job_duration_seconds',
      help: 'Run time of the jobs this process finished, by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      buckets: durationBuckets,
      registers: [registry],
    });
    // Both gauges below read one count per scrape: prom-client starts every metric's collect in
    // the same pass, so the second finds the first's count still running and shares it.
    let counting: Promise<UnfinishedJobCount[] | null> | null = null;
    const countOnce = () =>
      (counting ??= withTimeout(jobs.countUnfinished(), queueDepthTimeoutMs)
        .catch(() => null)
        .finally(() => (counting = null)));
    new Gauge({
      name: 'docqa_job_queue_depth_up',
      help:
        '1 when this scrape counted the queues, 0 when the count failed or took ' +
        'longer than 2 s (docqa_jobs is then left out).',
      registers: [registry],
      // Server processes of one cluster (BACKEND_WORKERS) count the same queues: not a sum.
      aggregator: 'min',
      async collect() {
        this.set((await countOnce()) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'docqa_jobs',
      help:
        'Unfinished jobs of the whole installation (every replica), by queue and ' +
        'state (queued, running), counted at scrape time.',
      labelNames: ['queue', 'state'],
      registers: [registry],
      aggregator: 'max',
      async collect() {
        const counts = await countOnce();
        // A failed count leaves no series rather than stale numbers that look current.
        this.reset();
        for (const { queue, queued, running } of counts ?? []) {
          if (queue.startsWith(internalQueuePrefix)) continue;
          this.set({ queue, state: 'queued' }, queued);
          this.set({ queue, state: 'running' }, running);
        }
      },
    });
    this.#stopListening = jobs.onJobRun((event) => this.#record(event));
  }

  #record(event: JobRunEvent): void {
    const kind = jobKind(event.queue, event.data);
    if (event.type === 'started') {
      this.#started.inc({ kind });
      return;
    }
    this.#finished.inc({ kind, outcome: event.outcome });
    this.#duration.observe({ kind, outcome: event.outcome }, event.seconds);
  }

  close(): void {
    this.#stopListening();
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
