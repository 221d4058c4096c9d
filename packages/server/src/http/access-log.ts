import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@docqa/plugin-api';

/**
 * One line per request when it finishes (pino-http would add a child logger per request and
 * serialise headers; on the hot path one call is enough). Health checks log at debug.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        request_id: res.locals.requestId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        duration_ms: Math.round(ms * 10) / 10,
        user_id: res.locals.principal?.userId,
      };
      if (req.path === '/api/health') logger.debug(line, 'request');
      else if (res.statusCode >= 500) logger.error(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
