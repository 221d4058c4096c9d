import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// A caller-supplied id is kept only when it is short and harmless, so it can go into logs as is.
const acceptable = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to log, else a new one. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && acceptable.test(incoming) ? incoming : crypto.randomUUID();
}
