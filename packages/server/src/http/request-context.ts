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

/** Whether a request's statements are cancelled when its client goes away, set by its route. */
const cancellable = new WeakMap<Response, { on: boolean }>();

/** The route's choice (route.ts, `cancelOnDisconnect`): this request's statements may be cancelled. */
export function cancelStatementsOnDisconnect(res: Response): void {
  const flag = cancellable.get(res);
  if (flag) flag.on = true;
}

/**
 * Runs the rest of the request's handling in its scope; after requestId(), which names it. Its
 * database statements get `statementTimeoutSeconds` each (REQUEST_STATEMENT_TIMEOUT_SECONDS, 0:
 * none). When the client goes away before its answer is sent, the statement running is cancelled
 * and no other starts, for reads (GET, HEAD) and the routes that ask for it (cancelOnDisconnect).
 */
export function requestScope(statementTimeoutSeconds: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const gone = new AbortController();
    const flag = { on: req.method === 'GET' || req.method === 'HEAD' };
    cancellable.set(res, flag);
    res.once('close', () => {
      if (!res.writableFinished && flag.on) gone.abort();
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
