import cluster from 'node:cluster';
import { DocqaError } from '@docqa/plugin-api';
import { installShutdownHandlers, loadConfig, readEnvironment } from '@docqa/kernel';
import { startServer } from '../server.js';
import { clusterMetricsSource } from '../metrics/cluster-metrics.js';
import { startMetricsListener, type MetricsListener } from '../metrics/metrics-listener.js';
import { missingLaunchSettings } from '../runtime/memory-policy.js';

/** Runs one server in this process until SIGTERM/SIGINT; returns the exit code. */
async function serveInProcess(): Promise<number> {
  // Handlers before the start: a signal while the server starts (or just after its "listening"
  // line) stops it once started, instead of node's default action killing it half-way.
  let requested!: (signal: NodeJS.Signals) => void;
  const signalled = new Promise<NodeJS.Signals>((resolve) => (requested = resolve));
  installShutdownHandlers(async (signal) => requested(signal));
  const running = await startServer({ clusterMetrics: cluster.isWorker });
  // Only node's start can apply them: say so to an operator who launches the CLI another way.
  const missing = missingLaunchSettings(process.execArgv, process.env);
  if (missing.length > 0) {
    running.kernel.logger.warn({ missing }, `started without the memory settings ${missing.join(', ')}, which npm start and the image set: expect a larger resident set (docs/operations.md, Memory)`);
  }
  const signal = await signalled;
  running.kernel.logger.info({ signal }, 'shutdown requested');
  await running.stop();
  return 0;
}

export const serveRoles = ['all', 'api', 'worker'];

/**
 * BACKEND_WORKERS server processes sharing one port (node:cluster). A worker that dies is
 * replaced; SIGTERM is passed on and the primary waits for every worker to drain. The embedded
 * database belongs to one process, so there it stays at one.
 *
 * `--role` is DOCQA_ROLE given on the command line: set in the environment, it wins over `.env`,
 * reaches the configuration check (api and worker need DATABASE_URL) and every forked process.
 */
export async function serve(role?: string): Promise<number> {
  if (role !== undefined) process.env.DOCQA_ROLE = role;
  if (cluster.isWorker) return serveInProcess();
  const config = loadConfig(readEnvironment(process.env, process.cwd()), { cwd: process.cwd() });
  let workers = config.values.BACKEND_WORKERS;
  if (workers > 1 && !config.values.DATABASE_URL) {
    process.stderr.write(`BACKEND_WORKERS=${workers} needs DATABASE_URL: the embedded database serves one process; running 1 worker.\n`);
    workers = 1;
  }
  if (workers === 1) return serveInProcess();

  let stopping = false;
  const fork = () => cluster.fork();
  // METRICS_PORT belongs to this process, which answers with every fork's metrics summed; the forks
  // open none (clusterMetrics). Opened first, so a port already taken stops the start before any fork.
  let metrics: MetricsListener | null = null;
  if (config.values.METRICS_PORT !== undefined) {
    const logger = { info: () => undefined, error: (_fields: object | string, message?: string) => void process.stderr.write(`${message ?? 'metrics listener error'}\n`) };
    metrics = await startMetricsListener(clusterMetricsSource(), { port: config.values.METRICS_PORT, host: config.values.METRICS_HOST, logger });
    process.stderr.write(`metrics of all ${workers} server workers on ${metrics.url}/metrics\n`);
  }
  for (let i = 0; i < workers; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    process.stderr.write(`server worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    setTimeout(fork, 1000);
  });
  return new Promise<number>((resolve) => {
    installShutdownHandlers(async () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      const alive = () => Object.values(cluster.workers ?? {}).filter((worker) => worker && !worker.isDead()).length;
      while (alive() > 0) await new Promise((r) => setTimeout(r, 100));
      await metrics?.close();
      resolve(0);
    });
  });
}

export function describeStartupError(error: unknown): string {
  if (DocqaError.is(error)) return error.message;
  return `DocQA could not start: ${(error as Error)?.stack ?? String(error)}`;
}
