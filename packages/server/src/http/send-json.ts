import type { Response } from 'express';

/**
 * A route's JSON answer, written as express's `res.json` writes it (the same body, Content-Type and
 * Content-Length) without its detour through `res.send`: a Buffer copy of the text, a charset
 * rewrite and a freshness check that can only matter when the answer carries an ETag or
 * Last-Modified, which then still go through express. A string body lets node send the head and the
 * body in one write instead of a writev of two buffers.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (res.hasHeader('ETag') || res.hasHeader('Last-Modified')) {
    res.status(status).json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
