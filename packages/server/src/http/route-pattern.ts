import type { Request } from 'express';
import { unmatchedRoute } from '@docqa/core/metrics';

/** The pattern express matched (`req.route` stays set through the error handler), else `other`. */
export function routePattern(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : unmatchedRoute;
}
