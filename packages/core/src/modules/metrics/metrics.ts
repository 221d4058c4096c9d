import { collectDefaultMetrics, Registry } from 'prom-client';
import { HttpMetrics } from './http-metrics.js';
import type { JobActivity, ReadDb } from '@docqa/plugin-api';
import { JobMetrics } from './job-metrics.js';
import { IngestMetrics } from './ingest-metrics.js';
import { LlmMetrics } from './llm-metrics.js';
import { ProcessMetrics } from './process-metrics.js';
import { ReplicaMetrics } from './replica-metrics.js';

/**
 * The Prometheus metrics of one server: a registry of its own (never prom-client's global one, so
 * that servers started side by side in one process, as tests do, keep separate numbers), the
 * process's default metrics, and one recorder per area that the code updating it is handed.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly http: HttpMetrics;
  readonly jobs: JobMetrics;
  readonly ingest: IngestMetrics;
  readonly llm: LlmMetrics;
  readonly process: ProcessMetrics;

  constructor(jobs: JobActivity, readDb?: ReadDb) {
    collectDefaultMetrics({ register: this.registry, prefix: 'docqa_' });
    this.http = new HttpMetrics(this.registry);
    this.jobs = new JobMetrics(this.registry, jobs);
    this.ingest = new IngestMetrics(this.registry);
    this.llm = new LlmMetrics(this.registry);
    this.process = new ProcessMetrics(this.registry);
    if (readDb) new ReplicaMetrics(this.registry, readDb);
  }

  /** The Prometheus text exposition format, version 0.0.4. */
  get contentType(): string {
    return this.registry.contentType;
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  close(): void {
    this.jobs.close();
  }
}
