import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Seconds; from a fast JSON answer to a long streamed chat answer or a large upload. */
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Request counts and latencies per route. The `route` label is the matched route's pattern
 * (`/api/docs/:id`), never the raw URL: ids and file names would make every request a new series.
 */
export class HttpMetrics {
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #duration: Histogram<'method' | 'route'>;
  readonly #inFlight: Gauge;

  constructor(registry: Registry) {
    this.#requests = new Counter({
      name: 'docqa_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.#duration = new Histogram({
      name: 'docqa_http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer (the whole stream for streamed chat answers).',
      labelNames: ['method', 'route'],
      buckets: latencyBuckets,
      registers: [registry],
    });
    this.#inFlight = new Gauge({
      name: 'docqa_http_requests_in_flight',
      help: 'HTTP requests being answered now.',
      registers: [registry],
    });
  }

  /** A request has started; `finished` is called once, when its answer ends or its client goes away. */
  started(): (answer: { method: string; route: string; status: string }) => void {
    const begun = process.hrtime.bigint();
    this.#inFlight.inc();
    let recorded = false;
    return ({ method, route, status }) => {
      if (recorded) return;
      recorded = true;
      this.#inFlight.dec();
      const seconds = Number(process.hrtime.bigint() - begun) / 1e9;
      const knownMethod = knownMethods.has(method) ? method : 'OTHER';
      this.#requests.inc({ method: knownMethod, route, status });
      this.#duration.observe({ method: knownMethod, route }, seconds);
    };
  }
}

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
