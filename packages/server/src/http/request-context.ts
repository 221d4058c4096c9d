import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { withStatementLimits } from '@docqa/kernel';

/** What code running on behalf of a request can find out about it, wherever it is called from. */
export interface RequestScope {
  requestId: string;
  /** Ends the request's connection: what is left when its code failed outside any handler. */
  abort(): void;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** The request whose work is running now (timers and callbacks it started included), if any. */
export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/**
 * Runs the rest of the request's handling in its scope; after requestId(), which names it. Its
 * database statements get `statementTimeoutSeconds` each (REQUEST_STATEMENT_TIMEOUT_SECONDS, 0:
 * none), and the one running is cancelled when the client goes away before its answer is sent.
 */
export function requestScope(statementTimeoutSeconds: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const limits = {
      timeoutMs: statementTimeoutSeconds * 1000,
      setting: 'REQUEST_STATEMENT_TIMEOUT_SECONDS',
      signal: gone.signal,
    };
    withStatementLimits(limits, () =>
      scopes.run({ requestId: String(res.locals.requestId), abort: () => res.destroy() }, next),
    );
  };
}
