import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

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

/** Runs the rest of the request's handling in its scope; after requestId(), which names it. */
export function requestScope() {
  return (req: Request, res: Response, next: NextFunction): void => {
    scopes.run({ requestId: String(res.locals.requestId), abort: () => res.destroy() }, next);
  };
}
