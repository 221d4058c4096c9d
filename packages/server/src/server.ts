import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kernel, type KernelOptions } from '@docqa/kernel';
import { createApp } from './http/app.js';
import { buildOpenApi } from './http/openapi.js';
import { mountApiReference } from './routes/api-reference.js';
import { mountWebUi } from './http/web-ui.js';
import { routes } from './routes/index.js';
import type { AnyRoute } from './http/route.js';
import { presets } from './presets/standard.js';
import { readBuildInfo } from './build-info.js';
import { createServices, type AppServices } from './services.js';
import { startWorkers } from './workers.js';
import { identityMigrations } from './identity/schema.js';
import { groupMigrations } from './identity/groups-schema.js';
import { documentMigrations } from './documents/schema.js';
import { searchMigrations } from './search/schema.js';
import { sourceMigrations } from './sources/schema.js';
import { ruleMigrations } from './rules/schema.js';
import { scheduleMigrations } from './schedules/schema.js';
import { conversationMigrations } from './chat/schema.js';
import { analyticsMigrations } from './analytics/schema.js';
import { auditMigrations } from './audit/schema.js';
import { brandingMigrations } from './branding/schema.js';
import { AuditStore } from './audit/audit-store.js';
import { providerTokens, type Db, type Logger, type Plan } from '@docqa/plugin-api';

export interface RunningServer {
  kernel: Kernel;
  services: AppServices;
  server: http.Server;
  url: string;
  /** Stops taking requests, lets running ones finish (up to the shutdown timeout), then stops the kernel. */
  stop(): Promise<void>;
}

export function openApiDocument(): Record<string, unknown> {
  return buildOpenApi(routes, { version: readBuildInfo().version });
}

export interface ServerOptions extends Partial<KernelOptions> {
  port?: number;
  host?: string;
  /** Routes served besides the product's (an edition's own endpoints, tests). */
  extraRoutes?: readonly AnyRoute[];
}

const applicationMigrations = [...identityMigrations, ...groupMigrations, ...documentMigrations, ...searchMigrations, ...sourceMigrations, ...ruleMigrations, ...scheduleMigrations, ...conversationMigrations, ...analyticsMigrations, ...auditMigrations, ...brandingMigrations];

/** Audit events go to the hash-chained log in the database, recorded while the plan is ENTERPRISE. */
function databaseAuditLog({ db, logger, container }: { db: Db; logger: Logger; container: Kernel['container'] }): AuditStore {
  const plan = (): Plan => (container.has(providerTokens.licenseGate) ? container.resolve(providerTokens.licenseGate).current().plan : 'FREE');
  return new AuditStore(db, logger, plan);
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port, host, extraRoutes = [], ...kernelOptions } = options;
  const kernel = await Kernel.start({
    presets,
    ...kernelOptions,
    migrations: [...applicationMigrations, ...(kernelOptions.migrations ?? [])],
    audit: kernelOptions.audit ?? databaseAuditLog,
  });
  try {
    const values = kernel.config.values;
    const services = createServices(kernel);
    await services.identity.ensureDefaultAdmin();
    const workers = await startWorkers(kernel, services);
    let document: Record<string, unknown> | null = null;
    const app = createApp({
      kernel,
      services,
      routes: [...routes, ...extraRoutes],
      extras: [(expressApp) => mountApiReference(expressApp, () => (document ??= openApiDocument()), values.ENABLE_API_DOCS), (expressApp) => mountWebUi(expressApp, kernel.logger)],
    });
    const server = http.createServer({ requestTimeout: 0, headersTimeout: 60_000, keepAliveTimeout: 5_000 }, app);
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
    kernel.logger.info({ url }, `DocQA is listening on ${url}`);
    let stopping: Promise<void> | null = null;
    const stop = () => (stopping ??= drainAndStop(server, kernel, values.SHUTDOWN_TIMEOUT_SECONDS * 1000).then(() => workers.close()));
    return { kernel, services, server, url, stop };
  } catch (error) {
    await kernel.stop();
    throw error;
  }
}

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
