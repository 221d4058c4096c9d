import type { Request, Response } from 'express';
import type { Logger } from '@docqa/plugin-api';

/**
 * One line per request when it ends (pino-http would add a child logger per request and serialise
 * headers; on the hot path one call is enough). Health checks log at debug. A client that went away
 * before the answer was complete is logged too, as status 499 (as nginx does) with `aborted`.
 * Called by the request pipeline (request-pipeline.ts) from the one listener it puts on the answer.
 */
export function accessLogger(logger: Logger) {
  return (req: Request, res: Response, durationMs: number, aborted: boolean): void => {
    const status = aborted ? 499 : res.statusCode;
    const line = {
      request_id: res.locals.requestId,
      method: req.method,
      path: req.path,
      status,
      duration_ms: Math.round(durationMs * 10) / 10,
      user_id: res.locals.principal?.userId,
      ...(aborted ? { aborted: true } : {}),
    };
    if (line.path === '/api/health') logger.debug(line, 'request');
    else if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
  };
}
