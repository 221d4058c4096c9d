import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { unmatchedRoute, type HttpMetrics } from '@docqa/core/metrics';

/** Mounted before any route, so that every request is counted once its answer ends. */
export function httpMetricsMiddleware(metrics: HttpMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const finished = metrics.started();
    const record = () =>
      finished({
        method: req.method,
        route: routePattern(req),
        // A client that goes away mid-answer leaves no status of its own; 499 as nginx logs it.
        status: res.writableFinished ? String(res.statusCode) : '499',
      });
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}

/** The pattern express matched (`req.route` stays set through the error handler), else `other`. */
function routePattern(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : unmatchedRoute;
}
