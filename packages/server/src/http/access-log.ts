import type { Logger } from '@docqa/plugin-api';

/** What the access log says about one answer. */
export interface AccessLogEntry {
  requestId: string;
  method: string | undefined;
  /** The URL's path without its query (express's `req.path`). */
  path: string;
  status: number;
  durationMs: number;
  userId: string | undefined;
  aborted: boolean;
}

/**
 * One line per request when it ends (pino-http would add a child logger per request and serialise
 * headers; on the hot path one call is enough). Health checks log at debug. A client that went away
 * before the answer was complete is logged too, as status 499 (as nginx does) with `aborted`.
 * Called by the request pipeline (request-pipeline.ts) from the one listener it puts on the answer.
 */
export function accessLogger(logger: Logger) {
  return (entry: AccessLogEntry): void => {
    const { status, aborted } = entry;
    const line = {
      request_id: entry.requestId,
      method: entry.method,
      path: entry.path,
      status,
      duration_ms: Math.round(entry.durationMs * 10) / 10,
      user_id: entry.userId,
      ...(aborted ? { aborted: true } : {}),
    };
    if (line.path === '/api/health') logger.debug(line, 'request');
    else if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
  };
}
