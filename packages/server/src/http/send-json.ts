import type { ServerResponse } from 'node:http';
import type { Response } from 'express';

/**
 * A route's JSON answer, written as express's `res.json` writes it (the same body, Content-Type and
 * Content-Length) without its detour through `res.send`: a Buffer copy of the text, a charset
 * rewrite and a freshness check that can only matter when the answer carries an ETag or
 * Last-Modified, which then still go through express.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (res.hasHeader('ETag') || res.hasHeader('Last-Modified')) {
    res.status(status).json(body);
    return;
  }
  writeJson(res, status, JSON.stringify(body));
}

/** The Content-Type of JSON answers, as express's `res.json` writes it. */
export const jsonContentType = 'application/json; charset=utf-8';

/**
 * JSON text as `res.json` would send it, on node's own answer. A string body
 * lets node send the head and the body in one write instead of a writev of two buffers.
 */
export function writeJson(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', jsonContentType);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
