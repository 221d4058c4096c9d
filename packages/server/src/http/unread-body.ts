import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A request can be answered before its body has been read: a refused upload (plan, size, type), or
 * any 401, 403 or 422 decided before the body is looked at. Once a handler has read part of the
 * body (piped it into a parser), node leaves the rest unread, the socket stalls, and a client still
 * sending sees its connection reset instead of reading the answer. So the rest is read and thrown
 * away, in constant memory, and the connection stays usable for the client's next request. A client
 * that keeps sending for longer than `lingerMs` after the answer has its connection closed, as
 * nginx's lingering close does: no request holds a socket for ever. The server passes
 * UPLOAD_DRAIN_SECONDS. A request without a body (no Content-Length above 0, no Transfer-Encoding:
 * HTTP/1.1 then has none) has nothing to drain and gets no listener.
 */
export function drainUnreadBody(req: IncomingMessage, res: ServerResponse, lingerMs: number): void {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return;
  res.once('finish', () => {
    if (req.complete || req.readableEnded || req.destroyed) return;
    req.resume();
    const timer = setTimeout(() => req.socket.destroy(), lingerMs).unref();
    const done = () => clearTimeout(timer);
    req.once('end', done);
    req.once('close', done);
  });
}
