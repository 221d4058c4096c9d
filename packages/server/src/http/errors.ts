import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { DocqaError, type FieldError } from '@docqa/plugin-api';
import type { Logger } from '@docqa/plugin-api';

/** zod issues as the decisions file's `errors` list; `field` is `<location>.<path>`. */
export function validationError(location: 'params' | 'query' | 'body', error: z.ZodError): DocqaError {
  const errors: FieldError[] = error.issues.map((issue) => ({
    field: [location, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new DocqaError('validation_failed', `The request ${location} is not valid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, { errors });
}

/** What body-parser and express report, in the shape every DocQA error has. */
function fromFrameworkError(error: unknown): DocqaError | null {
  const e = error as { type?: string; status?: number; expose?: boolean; message?: string; limit?: number };
  switch (e?.type) {
    case 'entity.parse.failed':
      return new DocqaError('bad_request', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new DocqaError('payload_too_large', `The request body is larger than the ${e.limit ?? 'configured'} bytes allowed (MAX_JSON_BODY).`, { extra: { limit: e.limit } });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DocqaError('bad_request', 'The request body encoding is not supported; send UTF-8.');
    case 'request.aborted':
      return new DocqaError('bad_request', 'The request was aborted by the client.');
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return new DocqaError('bad_request', e.message ?? 'Bad request.');
  }
  return null;
}

export function sendError(res: Response, error: DocqaError): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  if (error.status === 401 && !res.hasHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', 'Bearer');
  res.status(error.status).json(error.toBody());
}

/**
 * The last middleware: every failure leaves as `{detail, code}` JSON. Unknown errors are logged
 * with the request id and answered 500 without internals; the database being unreachable is 503.
 */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const known = DocqaError.is(error) ? error : fromFrameworkError(error);
    if (known && known.status < 500) {
      sendError(res, known);
      return;
    }
    const requestId = res.getHeader('X-Request-Id');
    if (known?.code === 'unavailable') {
      logger.warn({ err: error, request_id: requestId }, 'dependency unavailable');
      sendError(res, known);
      return;
    }
    logger.error({ err: error, request_id: requestId, method: req.method, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(res, new DocqaError('internal', `Something went wrong on our side (request ${String(requestId)}); the error has been logged.`));
  };
}
