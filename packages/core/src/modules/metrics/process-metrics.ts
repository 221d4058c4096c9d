import { Counter, type Registry } from 'prom-client';

/** Failures nothing handled: each one is a defect to find, even when the process went on. */
export type ProcessErrorKind = 'unhandled_rejection' | 'uncaught_exception';

export class ProcessMetrics {
  readonly #errors: Counter<'kind'>;

  constructor(registry: Registry) {
    this.#errors = new Counter({
      name: 'docqa_process_errors_total',
      help: 'Promise rejections nothing handled and exceptions nothing caught, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    });
    for (const kind of ['unhandled_rejection', 'uncaught_exception'] as const) this.#errors.inc({ kind }, 0);
  }

  error(kind: ProcessErrorKind): void {
    this.#errors.inc({ kind });
  }
}
