import type { Logger } from '@docqa/plugin-api';
import type { ProcessErrorKind } from '@docqa/core/metrics';
import type { RequestScope } from '../http/request-context.js';

export interface ProcessGuardOptions {
  logger: Logger;
  count(kind: ProcessErrorKind): void;
  /** The request whose code is running, if any (see http/request-context.ts). */
  currentRequest(): RequestScope | undefined;
  /** Stops the process gracefully, draining requests and jobs, with a failing exit code. */
  shutDown(error: unknown): void;
}

/**
 * What node does with a failure nobody handled, decided for a server. Node's default ends the
 * process at once: every request in flight is cut and running jobs are left to be retried, for
 * what is often one request's mistake.
 *
 * - A rejected promise nothing handled is logged with its stack and counted; the process goes on.
 *   The code that made the promise has moved on, so nothing waits for it and no state is half-made.
 * - An exception thrown by a request's own code (its callbacks and timers included) ends that
 *   request's connection, is logged and counted; the other requests and the jobs go on.
 * - Any other uncaught exception leaves the process in a state nobody can vouch for: it is logged,
 *   counted, and the process stops gracefully with a non-zero exit, for a supervisor to restart it.
 */
export function installProcessGuard(options: ProcessGuardOptions): () => void {
  const onRejection = (reason: unknown) => {
    options.count('unhandled_rejection');
    const request = options.currentRequest();
    options.logger.error({ err: reason, request_id: request?.requestId }, 'a promise rejected and nothing handled it');
  };
  let shuttingDown = false;
  const onException = (error: Error) => {
    options.count('uncaught_exception');
    const request = options.currentRequest();
    if (request) {
      options.logger.error(
        { err: error, request_id: request.requestId },
        'an exception escaped a request; its connection was closed',
      );
      request.abort();
      return;
    }
    options.logger.error({ err: error }, 'an exception escaped outside any request; stopping gracefully');
    if (shuttingDown) return;
    shuttingDown = true;
    options.shutDown(error);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
