import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { withStatementLimits, type StatementLimits } from '@docqa/kernel';

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
 * One request's statement limits, and whether its statements are cancelled when its client goes
 * away. The AbortController is made only when a statement asks for the signal: most answers that
 * never reach the database (version, health's own checks aside, refusals) do without one.
 */
export class RequestLimits implements StatementLimits {
  readonly setting = 'REQUEST_STATEMENT_TIMEOUT_SECONDS';
  /** Set by the route (`cancelOnDisconnect`), and for reads from the start. */
  cancellable: boolean;
  #gone: AbortController | null = null;
  #abandoned = false;

  constructor(
    readonly timeoutMs: number,
    method: string,
  ) {
    this.cancellable = method === 'GET' || method === 'HEAD';
  }

  get signal(): AbortSignal {
    if (!this.#gone) {
      this.#gone = new AbortController();
      if (this.#abandoned) this.#gone.abort();
    }
    return this.#gone.signal;
  }

  /** The client went away before its answer was sent. */
  abandon(): void {
    if (!this.cancellable || this.#abandoned) return;
    this.#abandoned = true;
    this.#gone?.abort();
  }
}

const limitsOf = new WeakMap<ServerResponse, RequestLimits>();

/** The route's choice (route.ts, `cancelOnDisconnect`): this request's statements may be cancelled. */
export function cancelStatementsOnDisconnect(res: ServerResponse): void {
  const limits = limitsOf.get(res);
  if (limits) limits.cancellable = true;
}

/** This request's limits, made before anything else runs for it; `abandon()` when its client goes away. */
export function requestLimits(
  req: IncomingMessage,
  res: ServerResponse,
  statementTimeoutSeconds: number,
): RequestLimits {
  const limits = new RequestLimits(statementTimeoutSeconds * 1000, req.method as string);
  limitsOf.set(res, limits);
  return limits;
}

/**
 * Runs the rest of the request's handling (`next`) in its scope, once its id is known. Its database
 * statements get the limits' timeout each (REQUEST_STATEMENT_TIMEOUT_SECONDS, 0: none). When the
 * client goes away before its answer is sent (the pipeline calls `abandon()` then), the statement
 * running is cancelled and no other starts, for reads (GET, HEAD) and the routes that ask for it
 * (cancelOnDisconnect).
 */
export function runInRequestScope(
  limits: RequestLimits,
  requestId: string,
  res: ServerResponse,
  next: () => void,
): void {
  withStatementLimits(limits, () => scopes.run({ requestId, abort: () => res.destroy() }, next));
}
