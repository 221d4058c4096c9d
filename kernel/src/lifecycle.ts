/**
 * SIGTERM and SIGINT start one graceful stop; a second signal while stopping exits at once (the
 * operator means it). The stop function drains HTTP and jobs, so it can take a while.
 */
export function installShutdownHandlers(
  stop: (signal: NodeJS.Signals) => Promise<void>,
  onForcedExit: () => void = () => process.exit(1),
  onStopFailed: (error: unknown) => void = stopFailed,
): () => void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      onForcedExit();
      return;
    }
    stopping = true;
    stop(signal).catch(onStopFailed);
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return () => {
    process.off('SIGTERM', handler);
    process.off('SIGINT', handler);
  };
}

/** A stop that failed half-way leaves nothing to drain for: say why, and exit with a failure. */
function stopFailed(error: unknown): void {
  process.stderr.write(`stopping failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
}
