import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kernel, type KernelOptions } from '@docqa/kernel';
import { createHandler } from './http/app.js';
import { buildOpenApi } from './http/openapi.js';
import { mountApiReference } from './routes/api-reference.js';
import { mountWebUi } from './http/web-ui.js';
import { routes } from './routes/index.js';
import type { AnyRoute } from './http/route.js';
import { presets } from './presets/standard.js';
import { readBuildInfo } from './build-info.js';
import { createServices, type AppServices } from './http/services.js';
import { systemRoutes } from './routes/system.js';
import { databaseAuditRecorder, standardModules } from '@docqa/core/modules';
import { licenseTokens } from '@docqa/core/license';
import { startMetricsListener, type MetricsListener } from './metrics/metrics-listener.js';
import { shareMetricsWithPrimary } from './metrics/cluster-metrics.js';
import { type AnyModule, type AuditService, type Db, type Logger, type Plan } from '@docqa/plugin-api';
import { holdTickObjectShape } from './runtime/tick-shape.js';

export interface RunningServer {
  kernel: Kernel;
  services: AppServices;
  server: http.Server;
  url: string;
  /** The unauthenticated metrics listener's address (METRICS_PORT), or null when it is off. */
  metricsUrl: string | null;
  /** Stops taking requests, lets running ones finish (up to the shutdown timeout), then stops the kernel. */
  stop(): Promise<void>;
}

export function openApiDocument(): Record<string, unknown> {
  return buildOpenApi(routes, { version: readBuildInfo().version });
}

export interface ServerOptions extends Partial<KernelOptions> {
  port?: number;
  host?: string;
  /**
   * Modules besides the standard ones; one with a standard module's id takes its place (an edition's
   * own version, a test's models module that polls faster).
   */
  modules?: KernelOptions['modules'];
  /** Routes served besides the product's (an edition's own endpoints, tests). */
  extraRoutes?: readonly AnyRoute[];
  /**
   * A server process of a cluster (BACKEND_WORKERS): the primary serves METRICS_PORT, this process's metrics included.
   */
  clusterMetrics?: boolean;
}

/**
 * Audit events go to the hash-chained log in the database, recorded while the plan is ENTERPRISE.
 * Made before the modules: until the license module starts, what plugins record counts as FREE.
 */
function databaseAuditLog({
  db,
  logger,
  container,
}: {
  db: Db;
  logger: Logger;
  container: Kernel['container'];
}): AuditService {
  const plan = (): Plan =>
    container.has(licenseTokens.service) ? container.resolve(licenseTokens.service).plan() : 'FREE';
  return databaseAuditRecorder(db, logger, plan);
}

function withStandardModules(given: readonly AnyModule[]): AnyModule[] {
  const replaced = new Set(given.map((module) => module.id));
  return [...standardModules.filter((module) => !replaced.has(module.id)), ...given];
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port, host, extraRoutes = [], clusterMetrics = false, ...kernelOptions } = options;
  // Before the database opens: its first full collections would otherwise cost every nextTick.
  holdTickObjectShape();
  const kernel = await Kernel.start({
    presets,
    ...kernelOptions,
    modules: withStandardModules(kernelOptions.modules ?? []),
    audit: kernelOptions.audit ?? databaseAuditLog,
  });
  let metricsListener: MetricsListener | null = null;
  try {
    const values = kernel.config.values;
    const role = values.DOCQA_ROLE;
    const services = createServices(kernel);
    // Every role, a worker too: it has no API, and this is where its job and ingest metrics show.
    if (clusterMetrics) shareMetricsWithPrimary(services.metrics);
    else if (values.METRICS_PORT !== undefined)
      metricsListener = await startMetricsListener(services.metrics, {
        port: values.METRICS_PORT,
        host: values.METRICS_HOST,
        logger: kernel.logger,
      });
    let document: Record<string, unknown> | null = null;
    // A worker answers only health and version, for container health checks and probes.
    const { listener } = createHandler({
      kernel,
      services,
      routes: role === 'worker' ? systemRoutes : [...routes, ...extraRoutes],
      extras:
        role === 'worker'
          ? []
          : [
              (expressApp) =>
                mountApiReference(expressApp, () => (document ??= openApiDocument()), values.ENABLE_API_DOCS),
              (expressApp) => mountWebUi(expressApp, kernel.logger),
            ],
    });
    const server = http.createServer(serverTimeouts, listener);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port ?? values.PORT, host ?? values.HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${shownHost}:${address.port}`;
    kernel.logger.info(
      { url, role },
      `DocQA is listening on ${url}${role === 'worker' ? ' (role worker: /api/health and /api/version only)' : ''}`,
    );
    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= drainAndStop(server, kernel, values.SHUTDOWN_TIMEOUT_SECONDS * 1000).then(async () => {
        await metricsListener?.close();
      }));
    return { kernel, services, server, url, metricsUrl: metricsListener?.url ?? null, stop };
  } catch (error) {
    await metricsListener?.close();
    await kernel.stop();
    throw error;
  }
}

/**
 * An idle keep-alive connection is closed after 5 s, and `Keep-Alive: timeout=5` tells clients so;
 * fetch (undici) stops reusing it a second earlier. A client whose event loop is busy can still
 * send on it just as the server closes it, and a POST that meets the closed socket fails with
 * ECONNRESET and leaves no trace in the server's log (no request arrived). Node 24.6 and later keep
 * the socket open `keepAliveTimeoutBuffer` longer than they announce (1 s, set here explicitly);
 * older Node ignores the option.
 */
const serverTimeouts: http.ServerOptions & { keepAliveTimeoutBuffer: number } = {
  requestTimeout: 0,
  headersTimeout: 60_000,
  keepAliveTimeout: 5_000,
  keepAliveTimeoutBuffer: 1_000,
};

async function drainAndStop(server: http.Server, kernel: Kernel, timeoutMs: number): Promise<void> {
  kernel.logger.info('stopping: no new requests; waiting for running ones');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive connections would hold close() open; busy ones finish their request first.
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  if ((await Promise.race([closed, timedOut])) === 'timeout') {
    kernel.logger.warn(`requests still running after ${timeoutMs / 1000} s; closing their connections`);
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  await kernel.stop();
}
