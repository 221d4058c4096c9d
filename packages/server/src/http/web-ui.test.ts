import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import type { Logger } from '@docqa/plugin-api';
import { mountWebUi } from './web-ui.js';

/** A logger that keeps its warnings. */
function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  const logger = {
    debug: ignore,
    info: ignore,
    error: ignore,
    warn: (...args: unknown[]) => warnings.push(String(args.at(-1))),
    child: () => logger,
  } as unknown as Logger;
  return { logger, warnings };
}

/** The app as createApp lays it out: the API first, the UI, then the JSON 404. */
async function serve(webDir: string, logger: Logger): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/api/ping', (_req, res) => res.json({ pong: true }));
  mountWebUi(app, logger, webDir);
  app.use((req, res) => res.status(404).json({ code: 'not_found', detail: `There is no ${req.method} ${req.path}.` }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('web UI mount', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-web-ui-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves index.html uncached for client routes, hashed assets for a year, and leaves /api and /docs alone', async () => {
    const webDir = path.join(dir, 'dist');
    fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    fs.writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><title>DocQA</title><script type="module" src="/assets/index-abc123.js"></script>',
    );
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const { logger, warnings } = recordingLogger();
    const server = await serve(webDir, logger);
    try {
      for (const route of ['/', '/chat/5b7c', '/reset-password?token=abc', '/admin/users']) {
        const res = await fetch(server.url + route);
        expect([route, res.status, res.headers.get('content-type')]).to.deep.equal([
          route,
          200,
          'text/html; charset=utf-8',
        ]);
        expect(res.headers.get('cache-control')).to.equal('no-cache');
        expect(res.headers.get('content-security-policy')).to.include("default-src 'self'");
        expect(await res.text()).to.include('<title>DocQA</title>');
      }
      const asset = await fetch(`${server.url}/assets/index-abc123.js`);
      expect(asset.status).to.equal(200);
      expect(asset.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect((await fetch(`${server.url}/favicon.svg`)).headers.get('cache-control')).to.equal('public, max-age=3600');
      expect((await fetch(`${server.url}/index.html`)).headers.get('cache-control')).to.equal('no-cache');
      // Not the UI's: a missing asset, the API and the reference answer their own 404 (JSON), never index.html.
      for (const route of ['/assets/missing.js', '/api/nothing', '/docs/nothing', '/api']) {
        const res = await fetch(server.url + route);
        expect([route, res.status, ((await res.json()) as { code: string }).code]).to.deep.equal([
          route,
          404,
          'not_found',
        ]);
      }
      expect(await (await fetch(`${server.url}/api/ping`)).json()).to.deep.equal({ pong: true });
      const post = await fetch(`${server.url}/chat`, { method: 'POST' });
      expect(post.status, 'only GET and HEAD get the page').to.equal(404);
      expect(warnings).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });

  it('serves the API alone, with one warning, when the UI was not built', async () => {
    const { logger, warnings } = recordingLogger();
    const server = await serve(path.join(dir, 'never-built'), logger);
    try {
      expect((await fetch(`${server.url}/`)).status).to.equal(404);
      expect((await fetch(`${server.url}/api/ping`)).status).to.equal(200);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.include('web UI not found').and.to.include('npm run build');
    } finally {
      await server.close();
    }
  });
});
