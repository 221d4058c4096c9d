import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A web site on 127.0.0.1 for the web integration to crawl: the start page links to pages that
 * answer only after a long wait, so a sync job stays running until it is cancelled.
 */
export async function startSlowSite(pages = 40): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      const links = Array.from({ length: pages }, (_, i) => `<li><a href="/page-${i + 1}">Page ${i + 1}</a></li>`).join(
        '',
      );
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html><head><title>Handbook</title></head>' +
            `<body><h1>Handbook</h1><p>The start page of a slow site.</p><ul>${links}</ul></body></html>`,
        );
      return;
    }
    if (req.url?.startsWith('/page-')) {
      // Held open: the crawler waits here until its job is cancelled (or the site closes).
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>${req.url}</p></body></html>`),
        120_000,
      );
      res.on('close', () => clearTimeout(timer));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
