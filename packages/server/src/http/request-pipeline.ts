import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RootLogger } from '@docqa/kernel';
import type { HttpMetrics } from '@docqa/core/metrics';
import { accessLogger } from './access-log.js';
import { requestIdFor } from './request-id.js';
import { requestLimits, runInRequestScope, type RequestLimits } from './request-context.js';
import { drainUnreadBody } from './unread-body.js';
import { routePattern } from './route-pattern.js';

export interface PipelineOptions {
  /** The kernel's: the access log writes through its root (`flatLineWriter`). */
  logger: RootLogger;
  metrics: HttpMetrics;
  /** REQUEST_STATEMENT_TIMEOUT_SECONDS. */
  statementTimeoutSeconds: number;
  /** UPLOAD_DRAIN_SECONDS, in ms. */
  drainLingerMs: number;
}

/** What the metrics and the access log name an answer by, known only once it is over. */
export interface AnsweredAs {
  /** The route's pattern (`/api/docs/:id`), or `other` when none matched. */
  route: string;
  /** The URL's path without its query. */
  path: string;
  userId: string | undefined;
}

/** A request the pipeline has taken in: its id and its statement limits, for its scope. */
export interface StartedRequest {
  requestId: string;
  limits: RequestLimits;
}

/**
 * The headers every answer carries after its X-Request-Id, as a raw header list (names as sent,
 * then values), shared by the pipeline and the fixed answers, which send them precomputed.
 */
export const securityHeaders: readonly string[] = [
  'X-Content-Type-Options',
  'nosniff',
  'Referrer-Policy',
  'no-referrer',
];

/**
 * What is done once an answer is over, made for one kind of answer: the metrics, the access-log
 * line, and, given the request's statement limits, the cancelling of its statements if the client
 * went away first. One `close` listener instead of five: each listener is an allocation and an
 * emit, which on a small answer cost more than the answer. `close` comes after `finish` for every
 * answer, and alone when the client went away. `describe` names the answer once it is over
 * (express knows its route only then).
 */
export function recordWhenOver(
  options: PipelineOptions,
  describe: (req: IncomingMessage, res: ServerResponse) => AnsweredAs,
): (req: IncomingMessage, res: ServerResponse, requestId: string, limits: RequestLimits | null) => void {
  const { metrics } = options;
  const logRequest = accessLogger(options.logger);
  return (req, res, requestId, limits) => {
    const started = process.hrtime.bigint();
    const finished = metrics.started();
    res.once('close', () => {
      const aborted = !res.writableFinished;
      if (aborted) limits?.abandon();
      const { route, path, userId } = describe(req, res);
      // A client that goes away mid-answer leaves no status of its own; 499 as nginx logs it.
      const status = aborted ? 499 : res.statusCode;
      const method = req.method as string;
      finished({ method, route, status: String(status) });
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logRequest({ requestId, method, path, status, durationMs, userId, aborted });
    });
  };
}

/**
 * What every request goes through before its route, on node's own request and answer, so that the
 * express middleware below and the node:http fast path (fast-path.ts) share it: its id
 * (X-Request-Id), the security headers, its statement limits, and, when its answer is over, what
 * `recordWhenOver` does. An unread body is drained once the answer is sent (unread-body.ts).
 */
export function startRequests(
  options: PipelineOptions,
  describe: (req: IncomingMessage, res: ServerResponse) => AnsweredAs,
): (req: IncomingMessage, res: ServerResponse) => StartedRequest {
  const { statementTimeoutSeconds, drainLingerMs } = options;
  const whenOver = recordWhenOver(options, describe);
  return (req, res) => {
    const requestId = requestIdFor(req);
    res.setHeader('X-Request-Id', requestId);
    for (let index = 0; index < securityHeaders.length; index += 2)
      res.setHeader(securityHeaders[index] as string, securityHeaders[index + 1] as string);
    const limits = requestLimits(req, res, statementTimeoutSeconds);
    whenOver(req, res, requestId, limits);
    drainUnreadBody(req, res, drainLingerMs);
    return { requestId, limits };
  };
}

/** An express answer as the metrics and the log name it: the route express matched, the signed-in user. */
function describeExpressAnswer(req: IncomingMessage, res: ServerResponse): AnsweredAs {
  const request = req as Request;
  const userId = (res as Response).locals.principal?.userId as string | undefined;
  return { route: routePattern(request), path: request.path, userId };
}

/** The pipeline as express's first middleware: every request that reaches express's router. */
export function requestPipeline(options: PipelineOptions): RequestHandler {
  const start = startRequests(options, describeExpressAnswer);
  return (req: Request, res: Response, next: NextFunction): void => {
    const { requestId, limits } = start(req, res);
    res.locals.requestId = requestId;
    runInRequestScope(limits, requestId, res, next);
  };
}
