import { createToken } from '@docqa/plugin-api';
import type { IngestObserver } from './ingest-metrics.js';
import type { Metrics } from './metrics.js';

// What other code may know of the metrics module: the registry of this process and the recorder
// each area is handed (types only), and the few names their callers share.

export type { Metrics } from './metrics.js';
export type { HttpMetrics } from './http-metrics.js';
export type { IngestMetrics, IngestObserver, IngestOutcome } from './ingest-metrics.js';
export type { ChatRequestOutcome, GenerationSample, LlmMetrics } from './llm-metrics.js';
export type { ProcessErrorKind, ProcessMetrics } from './process-metrics.js';
export type { JobMetrics } from './job-metrics.js';

/** The label of a request that matched no route (404s, static files of the web UI). */
export const unmatchedRoute = 'other';

/** For ingestion run without metrics (tools, tests). */
export const noIngestObserver: IngestObserver = { attemptEnded: () => undefined };

export const metricsTokens = {
  /** This process's Prometheus registry and its recorders. */
  service: createToken<Metrics>('metrics.service'),
};
