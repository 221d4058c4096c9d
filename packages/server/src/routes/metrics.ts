import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { metricsTokens } from '@docqa/core/metrics';

export const metricsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/metrics',
    access: 'admin',
    tag: 'System',
    operationId: 'getMetrics',
    summary: 'Prometheus metrics of this server process',
    description:
      'Request rates and latencies, job queue depth and durations, ingestion throughput, LLM token rates and the ' +
      'process defaults, in the Prometheus text exposition format (docs/metrics.md lists them). ' +
      'Counters are per process: scrape every replica. For a scraper without a token, ' +
      'METRICS_PORT opens a separate unauthenticated listener.',
    responses: {
      200: {
        description: 'The metrics, Prometheus text format 0.0.4.',
        schema: z.string(),
        contentType: 'text/plain; version=0.0.4',
      },
    },
    deps: { metrics: metricsTokens.service },
    async handler({ deps, res }) {
      const text = await deps.metrics.exposition();
      // send() gives the answer a length: a chunked one waits on delayed ACKs, tens of milliseconds per scrape.
      res.status(200).set({ 'Content-Type': deps.metrics.contentType, 'Cache-Control': 'no-store' }).send(text);
      return 'handled' as const;
    },
  }),
];
