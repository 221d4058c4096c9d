import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

// A caller-supplied id is kept only when it is short and harmless, so it can go into logs as is.
const acceptable = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && acceptable.test(incoming) ? incoming : crypto.randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
