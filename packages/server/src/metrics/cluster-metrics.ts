import { AggregatorRegistry } from 'prom-client';
import type { Metrics } from '@docqa/core/metrics';
import type { MetricsSource } from './metrics-listener.js';

/**
 * BACKEND_WORKERS above 1: several server processes share the ports (node:cluster), so a scrape of
 * one of them would see a different process each time. Instead the cluster's primary serves
 * METRICS_PORT with the sum of every process's metrics, asked over the cluster's IPC channel
 * (prom-client's AggregatorRegistry); gauges that count the same thing in every process say how
 * to combine (docqa_jobs: max).
 */
export function clusterMetricsSource(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, exposition: () => aggregator.clusterMetrics() };
}

/** In a server process of a cluster: answers the primary's requests with this server's registry. */
export function shareMetricsWithPrimary(metrics: Metrics): void {
  AggregatorRegistry.setRegistries([metrics.registry]);
  // Constructing one installs prom-client's listener for the primary's requests in this process.
  new AggregatorRegistry();
}
