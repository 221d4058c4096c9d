import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedRequest {
  path: string;
  range: string | null;
  ifRange: string | null;
  status: number;
}

/**
 * A plain HTTP file server on loopback, standing in for Hugging Face: GET with `Range: bytes=N-`
 * (206, or 200 when If-Range no longer matches), strong ETags, and two ways to misbehave on
 * purpose: drop the connection after some bytes, and send slowly (so a test can cancel midway).
 */
export interface ModelFileServer {
  url: string;
  requests: ServedRequest[];
  /** Serves `file` at `/<name>`; the ETag follows the file's size and modification time. */
  serve(name: string, file: string): string;
  /** The next GET of `/<name>` sends `afterBytes` bytes of its body, then closes the connection. */
  dropNext(name: string, afterBytes: number): void;
  /** Sends bodies in chunks of `chunkBytes` with `delayMs` between them (null: full speed). */
  throttle(setting: { chunkBytes: number; delayMs: number } | null): void;
  close(): Promise<void>;
}

export async function startModelFileServer(): Promise<ModelFileServer> {
  const files = new Map<string, string>();
  const drops = new Map<string, number>();
  const requests: ServedRequest[] = [];
  let slow: { chunkBytes: number; delayMs: number } | null = null;
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const file = files.get(name);
    const record = (status: number) =>
      requests.push({
        path: `/${name}`,
        range: req.headers.range ?? null,
        ifRange: (req.headers['if-range'] as string | undefined) ?? null,
        status,
      });
    if (!file || !fs.existsSync(file)) {
      record(404);
      res.writeHead(404).end('not found');
      return;
    }
    const stats = fs.statSync(file);
    const etag = `"${stats.size}-${Math.floor(stats.mtimeMs)}"`;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const rangeApplies = range && (!req.headers['if-range'] || req.headers['if-range'] === etag);
    let start = 0;
    if (rangeApplies) {
      start = Number(range[1]);
      if (start >= stats.size) {
        record(416);
        res.writeHead(416, { 'content-range': `bytes */${stats.size}` }).end();
        return;
      }
      record(206);
      res.writeHead(206, {
        'content-range': `bytes ${start}-${stats.size - 1}/${stats.size}`,
        'content-length': stats.size - start,
        etag,
        'accept-ranges': 'bytes',
      });
    } else {
      record(200);
      res.writeHead(200, { 'content-length': stats.size, etag, 'accept-ranges': 'bytes' });
    }
    const body = fs.readFileSync(file).subarray(start);
    const dropAfter = drops.get(name);
    drops.delete(name);
    send(res, dropAfter === undefined ? body : body.subarray(0, dropAfter), dropAfter !== undefined).catch(() =>
      res.destroy(),
    );
  });

  async function send(res: http.ServerResponse, body: Buffer, drop: boolean): Promise<void> {
    const chunk = slow?.chunkBytes ?? body.length;
    for (let offset = 0; offset < body.length; offset += chunk) {
      if (res.destroyed) return;
      await new Promise<void>((resolve) => res.write(body.subarray(offset, offset + chunk), () => resolve()));
      if (slow) await new Promise((resolve) => setTimeout(resolve, slow!.delayMs));
    }
    // Cut mid-body: the client sees the connection close before Content-Length bytes arrived.
    if (drop) {
      // A moment for the bytes to reach the client before the reset, or it may never see them.
      await new Promise((resolve) => setTimeout(resolve, 50));
      res.socket?.destroy();
    } else res.end();
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    serve(name, file) {
      files.set(name, file);
      return `${url}/${encodeURIComponent(name)}`;
    },
    dropNext: (name, afterBytes) => drops.set(name, afterBytes),
    throttle: (setting) => {
      slow = setting;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
