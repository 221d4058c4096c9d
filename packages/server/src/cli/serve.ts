import cluster from 'node:cluster';
import { DocqaError } from '@docqa/plugin-api';
import { installShutdownHandlers, loadConfig, readEnvironment } from '@docqa/kernel';
import { startServer } from '../server.js';
import { clusterMetricsSource } from '../metrics/cluster-metrics.js';
import { startMetricsListener, type MetricsListener } from '../metrics/metrics-listener.js';
import { missingLaunchSettings } from '../runtime/memory-policy.js';
import { installProcessGuard } from '../runtime/process-guard.js';
import { currentRequestScope } from '../http/request-context.js';

/**
 * Runs one server in this process until SIGTERM/SIGINT (exit code 0), or until a failure the
 * process guard judges fatal (exit code 1, after the same graceful stop).
 */
async function serveInProcess(): Promise<number> {
  // Handlers before the start: a signal while the server starts (or just after its "listening"
  // line) stops it once started, instead of node's default action killing it half-way.
  let requested!: (signal: NodeJS.Signals) => void;
  const signalled = new Promise<NodeJS.Signals>((resolve) => (requested = resolve));
  installShutdownHandlers(async (signal) => requested(signal));
  // A supervised process is told to stop by its primary over the IPC channel, not by a signal: a
  // terminal's Ctrl-C reaches both, and a second signal would mean "stop at once".
  if (cluster.isWorker) process.on('message', (message) => message === stopMessage && requested('SIGTERM'));
  const running = await startServer({ clusterMetrics: cluster.isWorker });
  let failed!: (error: unknown) => void;
  const fatal = new Promise<unknown>((resolve) => (failed = resolve));
  installProcessGuard({
    logger: running.kernel.logger,
    count: (kind) => running.services.metrics.process.error(kind),
    currentRequest: currentRequestScope,
    shutDown: failed,
  });
  // Only node's start can apply them: say so to an operator who launches the CLI another way.
  const missing = missingLaunchSettings(process.execArgv, process.env);
  if (missing.length > 0) {
    running.kernel.logger.warn(
      { missing },
      `started without the memory settings ${missing.join(', ')}, which npm start and the ` +
        'image set: expect a larger resident set, or slower small requests (docs/operations.md, Memory)',
    );
  }
  const ended = await Promise.race([signalled.then((signal) => ({ signal })), fatal.then((error) => ({ error }))]);
  if ('signal' in ended) running.kernel.logger.info({ signal: ended.signal }, 'shutdown requested');
  await running.stop();
  return 'error' in ended ? 1 : 0;
}

export const serveRoles = ['all', 'api', 'worker'];

const stopMessage = 'docqa:stop';

export interface ServeOptions {
  /** DOCQA_ROLE given on the command line. */
  role?: string | undefined;
  /** Run the server in a child process and start another when it fails (`npm start` does). */
  supervise?: boolean;
}

/**
 * BACKEND_WORKERS server processes sharing one port (node:cluster), or one in this process. A
 * worker that dies is replaced; SIGTERM is passed on and the primary waits for every worker to
 * drain. The embedded database belongs to one process, so there it stays at one; `supervise` runs
 * that one as a child too, so a failure that stops it (docs/operations.md) is followed by a restart.
 *
 * `--role` is DOCQA_ROLE given on the command line: set in the environment, it wins over `.env`,
 * reaches the configuration check (api and worker need DATABASE_URL) and every forked process.
 */
export async function serve(options: ServeOptions = {}): Promise<number> {
  if (options.role !== undefined) process.env.DOCQA_ROLE = options.role;
  if (cluster.isWorker) return serveInProcess();
  const config = loadConfig(readEnvironment(process.env, process.cwd()), { cwd: process.cwd() });
  let workers = config.values.BACKEND_WORKERS;
  if (workers > 1 && !config.values.DATABASE_URL) {
    process.stderr.write(
      `BACKEND_WORKERS=${workers} needs DATABASE_URL: the embedded database serves one process; running 1 worker.\n`,
    );
    workers = 1;
  }
  if (workers === 1 && !options.supervise) return serveInProcess();

  // METRICS_PORT belongs to this process, which answers with every fork's metrics summed; the forks
  // open none (clusterMetrics). Opened first, so a port already taken stops the start before any fork.
  let metrics: MetricsListener | null = null;
  if (config.values.METRICS_PORT !== undefined) {
    const logger = {
      info: () => undefined,
      error: (_fields: object | string, message?: string) =>
        void process.stderr.write(`${message ?? 'metrics listener error'}\n`),
    };
    metrics = await startMetricsListener(clusterMetricsSource(), {
      port: config.values.METRICS_PORT,
      host: config.values.METRICS_HOST,
      logger,
    });
    process.stderr.write(`metrics of all ${workers} server workers on ${metrics.url}/metrics\n`);
  }
  const code = await superviseWorkers(workers);
  await metrics?.close();
  return code;
}

/**
 * Keeps `count` server processes running until SIGTERM/SIGINT. A process that ends is replaced
 * after a pause that doubles with each failure in a row (1 s up to 30 s; a minute without one
 * resets it), so a failure that repeats does not spin. One that fails before any process has ever
 * listened is a start-up failure (configuration, database): restarting would not mend it, so the
 * primary stops and exits with its code.
 */
function superviseWorkers(count: number): Promise<number> {
  let stopping = false;
  let listened = false;
  let failuresInARow = 0;
  let lastFailure = 0;
  return new Promise<number>((resolve) => {
    const stopAll = async () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send(stopMessage);
      const alive = () => Object.values(cluster.workers ?? {}).filter((worker) => worker && !worker.isDead()).length;
      while (alive() > 0) await new Promise((r) => setTimeout(r, 100));
    };
    cluster.on('listening', () => (listened = true));
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      if (!listened) {
        process.stderr.write(`the server failed to start (${signal ?? code}); not restarting it\n`);
        stopAll().then(
          () => resolve(code || 1),
          () => resolve(1),
        );
        return;
      }
      if (Date.now() - lastFailure > 60_000) failuresInARow = 0;
      lastFailure = Date.now();
      const delay = Math.min(30_000, 1000 * 2 ** failuresInARow++);
      process.stderr.write(
        `server process ${worker.process.pid} exited (${signal ?? code}); starting another in ${delay / 1000} s\n`,
      );
      setTimeout(() => stopping || cluster.fork(), delay);
    });
    for (let i = 0; i < count; i++) cluster.fork();
    installShutdownHandlers(async () => {
      await stopAll();
      resolve(0);
    });
  });
}

export function describeStartupError(error: unknown): string {
  if (DocqaError.is(error)) return error.message;
  return `DocQA could not start: ${(error as Error)?.stack ?? String(error)}`;
}
