/**
 * A piece of upkeep the server runs on a timer and on demand (the embedded database's autovacuum and
 * checkpoints): never two runs at once, a call during a run gets that run, and after stop() no run
 * starts while one under way is waited for. The task is told when a stop came, so a long run can end early.
 */
export interface PeriodicTask<T> {
  runOnce(): Promise<T>;
  stop(): Promise<void>;
}

export function startPeriodicTask<T>(
  task: (stopping: () => boolean) => Promise<T>,
  intervalMs: number,
  onError: (error: unknown) => void,
): PeriodicTask<T> {
  let stopped = false;
  let running: Promise<T> | null = null;
  const stopping = () => stopped;

  function runOnce(): Promise<T> {
    running ??= task(stopping).finally(() => {
      running = null;
    });
    return running;
  }

  const timer = setInterval(() => {
    runOnce().catch((error: unknown) => {
      if (!stopped) onError(error);
    });
  }, intervalMs);
  // Upkeep never keeps the process alive.
  timer.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
