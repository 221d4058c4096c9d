import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { definePreset } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { defineRoute } from './http/route.js';
import { startServer, type RunningServer } from './server.js';

// Response bodies are checked field by field, so a loose JSON type is enough here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (res: Response) => res.json() as Promise<Record<string, any>>;

const slow = defineRoute({
  method: 'get',
  path: '/api/test/slow',
  access: 'public',
  tag: 'Test',
  operationId: 'slow',
  summary: 'answers after a while',
  responses: { 200: { description: 'done' } },
  handler: async () => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    return { status: 200, body: { finished: true } };
  },
});

describe('server lifecycle', function () {
  let running: RunningServer;
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-server-'));
    const database = process.env.TEST_DATABASE_URL
      ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL)
      : null;
    dropDatabase = database?.drop;
    running = await startServer({
      env: {
        ...testSecrets,
        DOCQA_DATA_DIR: dataDir,
        DOCQA_SECRETS_DIR: dataDir,
        LOG_LEVEL: 'ERROR',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      presets: { standard: definePreset({ id: 'standard', description: 'none', plugins: () => [] }) },
      port: 0,
      host: '127.0.0.1',
      extraRoutes: [slow],
    });
  });
  after(async () => {
    await running.stop();
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports health with the version and its checks', async () => {
    const res = await fetch(`${running.url}/api/health`);
    expect(res.status).to.equal(200);
    const body = await readJson(res);
    expect(body).to.deep.include({
      status: 'ok',
      checks: { database: 'ok', jobs: 'ok', llm: 'not_configured', vectors: 'not_configured' },
    });
    expect(body.version).to.match(/^\d+\.\d+\.\d+/);
    const version = await readJson(await fetch(`${running.url}/api/version`));
    expect(Object.keys(version)).to.deep.equal(['version', 'commit', 'build_date']);
    expect(version.version).to.equal(body.version);
  });

  it('serves the interactive reference at /docs from local files only', async () => {
    const page = await fetch(`${running.url}/docs`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html)
      .to.include('/docs/assets/swagger-ui-bundle.js')
      .and.not.match(/https?:\/\//);
    expect((await fetch(`${running.url}/docs/assets/swagger-ui-bundle.js`)).status).to.equal(200);
    const document = await readJson(await fetch(`${running.url}/docs/openapi.json`));
    expect(document.paths).to.have.property('/api/health');
    expect((await fetch(`${running.url}/api/openapi.json`)).status, 'off unless ENABLE_API_DOCS').to.equal(404);
    expect((await fetch(`${running.url}/api/swagger`)).status).to.equal(404);
  });

  it('an idle keep-alive connection reused just after its announced timeout still gets its answer', async function () {
    // The cause of the resets seen in long upload runs: the server used to close an idle connection
    // at the very moment Keep-Alive: timeout=5 announced, and a busy client's next POST met a closed
    // socket. Node 24.6 and later keep it open keepAliveTimeoutBuffer (1 s) longer; older Node cannot.
    if (!('keepAliveTimeoutBuffer' in running.server)) this.skip();
    this.timeout(20_000);
    const { hostname, port } = new URL(running.url);
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    const answers = () => received.split('HTTP/1.1 ').length - 1;
    const ask = () => socket.write(`GET /api/version HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    const waitFor = async (count: number) => {
      for (let i = 0; i < 100 && answers() < count && !socket.destroyed; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    ask();
    await waitFor(1);
    expect(received).to.match(/Keep-Alive: timeout=5/i);
    await new Promise((resolve) => setTimeout(resolve, 5_300));
    ask();
    await waitFor(2);
    socket.destroy();
    expect(answers(), 'the second request on the connection was answered').to.equal(2);
  });

  it('a stop lets a running request finish and then refuses connections', async () => {
    const inFlight = fetch(`${running.url}/api/test/slow`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = running.stop();
    const res = await inFlight;
    expect(res.status).to.equal(200);
    expect(await readJson(res)).to.deep.equal({ finished: true });
    await stopped;
    const after = await fetch(`${running.url}/api/health`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(after).to.equal('refused');
  });
});
