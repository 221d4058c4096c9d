import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kernel, type KernelOptions } from '@docqa/kernel';
import { createApp } from './http/app.js';
import { buildOpenApi } from './http/openapi.js';
import { mountApiReference } from './routes/api-reference.js';
import { routes } from './routes/index.js';
import type { AnyRoute } from './http/route.js';
import { presets } from './presets/standard.js';
import { readBuildInfo } from './build-info.js';
import { createServices, type AppServices } from './services.js';
import { identityMigrations } from './identity/schema.js';
import { groupMigrations } from './identity/groups-schema.js';
import { documentMigrations } from './documents/schema.js';
import { searchMigrations } from './search/schema.js';
import { ingestQueue, type IngestJobData } from './documents/document-service.js';
import { IngestPipeline } from './documents/ingest.js';
import { rebuildQueue } from './documents/index-service.js';
import { sourceMigrations } from './sources/schema.js';
import { ruleMigrations } from './rules/schema.js';
import { scheduleMigrations } from './schedules/schema.js';
import { metadataRefreshQueue, refreshMetadata, type MetadataRefreshData } from './rules/refresh.js';
import { SourceSync, syncQueue, type SyncJobData } from './sources/sync.js';

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

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port, host, extraRoutes = [], ...kernelOptions } = options;
  const kernel = await Kernel.start({ presets, ...kernelOptions, migrations: [...identityMigrations, ...groupMigrations, ...documentMigrations, ...searchMigrations, ...sourceMigrations, ...ruleMigrations, ...scheduleMigrations, ...(kernelOptions.migrations ?? [])] });
  try {
    const values = kernel.config.values;
    const services = createServices(kernel);
    await services.identity.ensureDefaultAdmin();
    await kernel.jobs.createQueue(ingestQueue, { retryLimit: 2, retryDelaySeconds: 10, expireInSeconds: 3600, heartbeatSeconds: 30 });
    const ingest = new IngestPipeline(kernel, services.documents, services.rules);
    await kernel.jobs.work<IngestJobData>(ingestQueue, (job) => ingest.run(job), { concurrency: 2 });
    await kernel.jobs.createQueue(rebuildQueue, { retryLimit: 0, expireInSeconds: 24 * 3600, heartbeatSeconds: 30 });
    await kernel.jobs.work<{ requestedBy: string }>(rebuildQueue, (job) => services.index.rebuild(job, ingest));
    await kernel.jobs.createQueue(syncQueue, { retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 6 * 3600, heartbeatSeconds: 30 });
    const sync = new SourceSync(kernel, services.sources, services.documents);
    await kernel.jobs.work<SyncJobData>(syncQueue, (job) => sync.run(job), { concurrency: 2 });
    await kernel.jobs.createQueue(metadataRefreshQueue, { retryLimit: 1, expireInSeconds: 6 * 3600, heartbeatSeconds: 30 });
    await kernel.jobs.work<MetadataRefreshData>(metadataRefreshQueue, (job) => refreshMetadata(kernel, services.rules, job));
    await services.documents.requeueOrphans();
    let document: Record<string, unknown> | null = null;
    const app = createApp({
      kernel,
      services,
      routes: [...routes, ...extraRoutes],
      extras: [(expressApp) => mountApiReference(expressApp, () => (document ??= openApiDocument()), values.ENABLE_API_DOCS)],
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
    const stop = () => (stopping ??= drainAndStop(server, kernel, values.SHUTDOWN_TIMEOUT_SECONDS * 1000).then(() => Promise.all([ingest.close(), services.rules.close()])).then(() => undefined));
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
