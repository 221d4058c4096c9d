import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { DocqaError, type FieldError } from '@docqa/plugin-api';
import type { Logger } from '@docqa/plugin-api';
import { asDatabaseError } from '@docqa/kernel';

/** zod issues as the decisions file's `errors` list; `field` is `<location>.<path>`. */
export function validationError(location: 'params' | 'query' | 'body', error: z.ZodError): DocqaError {
  const errors: FieldError[] = error.issues.map((issue) => ({
    field: [location, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new DocqaError(
    'validation_failed',
    `The request ${location} is not valid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
    { errors },
  );
}

/**
 * PostgreSQL refuses U+0000 in text, so a string holding it would fail as a 500 deep in a query
 * (a user name, a chat question, a metadata filter's key or value, a path). Every request part is
 * checked before its schema, keys included, and the first such field answers 422.
 */
export function refuseNulCharacters(value: unknown, location: 'params' | 'query' | 'body'): void {
  const field = fieldWithNul(value, []);
  if (field === null) return;
  const name = [location, ...field].join('.');
  throw new DocqaError(
    'validation_failed',
    `The request ${location} is not valid: ${name} holds the NUL character (U+0000), which text may not contain.`,
    {
      errors: [{ field: name, message: 'must not contain the NUL character (U+0000)' }],
    },
  );
}

function fieldWithNul(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '\\u0000')];
    const found = fieldWithNul(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** What body-parser and express report, in the shape every DocQA error has. */
export function fromFrameworkError(error: unknown): DocqaError | null {
  const e = error as { type?: string; status?: number; expose?: boolean; message?: string; limit?: number };
  switch (e?.type) {
    case 'entity.parse.failed':
      return new DocqaError('bad_request', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new DocqaError(
        'payload_too_large',
        `The request body is larger than the ${e.limit ?? 'configured'} bytes allowed (MAX_JSON_BODY).`,
        { extra: { limit: e.limit } },
      );
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

/**
 * A failure as the DocqaError it stands for, or null when it is unknown (a 500): DocQA's own, what
 * the framework reports, and database failures met outside the kernel's `Db` (MikroORM, Kysely):
 * the database unreachable (503 `unavailable`), a statement stopped by its timeout (504).
 */
export function knownError(error: unknown): DocqaError | null {
  if (DocqaError.is(error)) return error;
  const framework = fromFrameworkError(error);
  if (framework) return framework;
  const database = asDatabaseError(error);
  return DocqaError.is(database) ? database : null;
}

/** Failures of what DocQA depends on, not of DocQA: a warning, and the answer they carry. */
export function isDependencyFailure(error: DocqaError | null): error is DocqaError {
  return error?.code === 'unavailable' || error?.code === 'query_timeout';
}

export function sendError(res: Response, error: DocqaError): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  if (error.status === 401 && !res.hasHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', 'Bearer');
  res.status(error.status).json(error.toBody());
}

export function clientWentAway(req: Request, error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  // Not req.destroyed: a request stream is destroyed as soon as its body has been read.
  return (
    req.socket.destroyed ||
    code === 'ECONNABORTED' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE'
  );
}

/**
 * The last middleware: every failure leaves as `{detail, code}` JSON. Unknown errors are logged
 * with the request id and answered 500 without internals; the database being unreachable is 503.
 */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const known = knownError(error);
    if (known && known.status < 500) {
      sendError(res, known);
      return;
    }
    const requestId = res.getHeader('X-Request-Id');
    // A client that left before its answer (a file of the web UI, a stream) is no server failure.
    if (clientWentAway(req, error)) {
      logger.debug(
        { request_id: requestId, method: req.method, path: req.path, reason: (error as { code?: string }).code },
        'the client went away before the answer',
      );
      res.destroy();
      return;
    }
    if (isDependencyFailure(known)) {
      logger.warn({ err: error, request_id: requestId }, 'dependency unavailable');
      sendError(res, known);
      return;
    }
    logger.error({ err: error, request_id: requestId, method: req.method, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(
      res,
      new DocqaError(
        'internal',
        `Something went wrong on our side (request ${String(requestId)}); the error has been logged.`,
      ),
    );
  };
}
