import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@docqa/plugin-api';

/** What the listener serves: one server's metrics, or the sum of a cluster's (see cluster-metrics.ts). */
export interface MetricsSource {
  readonly contentType: string;
  exposition(): Promise<string>;
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** The paths a scraper may ask: Prometheus's default, and the main port's path. */
const metricsPaths = new Set(['/metrics', '/api/metrics']);

/**
 * METRICS_PORT: a second HTTP listener that serves only the metrics, without authentication, for a
 * scraper on a private network. It is the one way a worker-only process (no API) shows its metrics.
 */
export async function startMetricsListener(
  metrics: MetricsSource,
  options: { port: number; host: string; logger: Pick<Logger, 'info' | 'error'> },
): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (!metricsPaths.has(path)) return plain(res, 404, `There is no ${path} here; metrics are at /metrics.\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return plain(res, 405, `${req.method} is not allowed; use GET.\n`);
    }
    metrics.exposition().then(
      (text) => {
        // A known length: a chunked answer waits on delayed ACKs and takes tens of milliseconds more.
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Content-Length': Buffer.byteLength(text) });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'collecting metrics failed');
        plain(res, 500, 'Collecting the metrics failed; see the server log.\n');
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  options.logger.info({ url }, `metrics listener on ${url}/metrics (no authentication)`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function plain(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
