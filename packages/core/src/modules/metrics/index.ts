import { defineModule, tokens } from '@docqa/plugin-api';
import { metricsTokens } from './contract.js';
import { Metrics } from './metrics.js';

/**
 * The Prometheus metrics of this process (docs/metrics.md): a registry of its own, so servers
 * started side by side in one process (as tests do) keep separate numbers. The HTTP layer serves
 * it at /api/metrics and on METRICS_PORT.
 */
export const metricsModule = defineModule({
  id: 'metrics',
  deps: { jobActivity: tokens.jobActivity, readDb: tokens.readDb },
  provides: { service: metricsTokens.service },
  init: ({ deps, onStop }) => {
    const metrics = new Metrics(deps.jobActivity, deps.readDb);
    onStop(() => metrics.close());
    return { service: metrics };
  },
});
