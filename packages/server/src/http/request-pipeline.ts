import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '@docqa/plugin-api';
import type { HttpMetrics } from '@docqa/core/metrics';
import { accessLogger } from './access-log.js';
import { requestIdFor } from './request-id.js';
import { requestLimits, runInRequestScope } from './request-context.js';
import { drainUnreadBody } from './unread-body.js';
import { routePattern } from './route-pattern.js';

export interface PipelineOptions {
  logger: Logger;
  metrics: HttpMetrics;
  /** REQUEST_STATEMENT_TIMEOUT_SECONDS. */
  statementTimeoutSeconds: number;
  /** UPLOAD_DRAIN_SECONDS, in ms. */
  drainLingerMs: number;
}

/**
 * What every request goes through before its route: its id (X-Request-Id), the security headers, its
 * statement limits and scope, and, when its answer is over, the metrics, the access-log line and the
 * cancelling of its statements if the client went away first. One middleware and one `close`
 * listener instead of five of each: express's router pays for every layer a request passes, and each
 * listener is an allocation and an emit, which on a small answer cost more than the answer.
 * `close` comes after `finish` for every answer, and alone when the client went away.
 */
export function requestPipeline(options: PipelineOptions): RequestHandler {
  const { metrics, statementTimeoutSeconds, drainLingerMs } = options;
  const logRequest = accessLogger(options.logger);
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const finished = metrics.started();
    const requestId = requestIdFor(req);
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const limits = requestLimits(req, res, statementTimeoutSeconds);
    res.once('close', () => {
      const aborted = !res.writableFinished;
      if (aborted) limits.abandon();
      // A client that goes away mid-answer leaves no status of its own; 499 as nginx logs it.
      finished({ method: req.method, route: routePattern(req), status: aborted ? '499' : String(res.statusCode) });
      logRequest(req, res, Number(process.hrtime.bigint() - started) / 1e6, aborted);
    });
    drainUnreadBody(req, res, drainLingerMs);
    runInRequestScope(limits, requestId, res, next);
  };
}
