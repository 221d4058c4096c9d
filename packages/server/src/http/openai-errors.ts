import type { Request, Response } from 'express';
import { DocqaError, type Logger } from '@docqa/plugin-api';
import { clientWentAway, isDependencyFailure, knownError } from './errors.js';

/** OpenAI's error body: what its client libraries parse into their error classes. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** OpenAI's error types by status; its clients pick their exception class by the status alone. */
function typeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/**
 * A DocqaError in OpenAI's shape. 422 (a body DocQA could not accept) answers 400, as OpenAI does
 * for every invalid request; `param` names the first invalid field of the body, if any.
 */
export function openAiError(error: DocqaError): { status: number; body: OpenAiErrorBody } {
  const status = error.status === 422 ? 400 : error.status;
  const field = error.errors?.[0]?.field ?? null;
  const param = field?.startsWith('body.') ? field.slice('body.'.length) : field;
  const code = typeof error.extra.openai_code === 'string' ? error.extra.openai_code : error.code;
  return { status, body: { error: { message: error.message, type: typeOf(status), param, code } } };
}

/**
 * The error handler of the OpenAI-compatible routes, with the general one's rules: a client that
 * went away is no failure, unknown errors are logged and answered without internals.
 */
export function sendOpenAiError(req: Request, res: Response, error: unknown, logger: Logger): void {
  let known = knownError(error);
  if (!known || known.status >= 500) {
    if (clientWentAway(req, error)) {
      res.destroy();
      return;
    }
    const requestId = String(res.getHeader('X-Request-Id'));
    if (isDependencyFailure(known)) logger.warn({ err: error, request_id: requestId }, 'dependency unavailable');
    else logger.error({ err: error, request_id: requestId, method: req.method, path: req.path }, 'request failed');
    known ??= new DocqaError('internal', `Something went wrong on our side (request ${requestId}); it was logged.`);
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
  if (known.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  const { status, body } = openAiError(known);
  res.status(status).json(body);
}
