import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { chatStream } from '../../packages/server/src/testing/sse.test-support.js';
import { inferenceServerApiKey } from '../../packages/server/src/presets/standard.js';
import { baseEnv, serveCli, type ServingCli } from '../support/cli.js';
import { databaseEnv } from '../support/database.js';
import { dockerDir, freePort, render, requireTool, startNginx, tempDir, type RunningNginx } from './tools.js';

const mib = 1024 * 1024;
const adminPassword = 'admin-password-1';
// Eight words, one streamed piece each, 300 ms apart: about 2 s from the first to the last.
const slowAnswer = 'Invoices are archived for ten years there [1].';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request through nginx from a chosen loopback address (127.0.0.2, ...), so that each check
 * of the per-client limit starts with a full bucket of its own.
 */
function send(
  port: number,
  method: string,
  route: string,
  options: { from?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.json === undefined ? options.body : Buffer.from(JSON.stringify(options.json));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(body ? { 'content-length': String(body.length) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A multipart upload of one text file. */
function multipart(filename: string, text: string): { body: Buffer; type: string } {
  const boundary = `docqa-${Date.now().toString(16)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** Text of exactly `bytes` bytes. */
function textOfSize(bytes: number, seed: string): string {
  const line = `${seed} holds words that say nothing in particular, repeated to size.\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

describe('deployment: the generated nginx in front of a running DocQA (reset limit, SSE, upload size)', function () {
  this.timeout(240_000);
  let dir: string;
  let database: Awaited<ReturnType<typeof databaseEnv>>;
  let inference: ChatCompletionsServer;
  let server: ServingCli;
  let nginx: RunningNginx;
  let port: number;
  let token: string;

  before(async () => {
    requireTool('nginx', 'nginx');
    dir = tempDir('nginx-docqa');
    database = await databaseEnv();
    // The stack's chat path: LLM_BACKEND=local with INFERENCE_URL, answered by a llama.cpp stand-in.
    inference = await startChatCompletionsServer({
      apiKey: inferenceServerApiKey,
      reply: slowAnswer,
      tokenDelayMs: 300,
    });
    server = await serveCli({
      cwd: dir,
      timeoutMs: 120_000,
      env: baseEnv({
        JWT_SECRET_KEY: 'j'.repeat(48),
        MFA_ENCRYPTION_KEY: 'm'.repeat(48),
        DEFAULT_ADMIN_PASSWORD: adminPassword,
        DOCQA_DATA_DIR: path.join(dir, 'data'),
        PORT: '0',
        SHUTDOWN_TIMEOUT_SECONDS: '5',
        RAG_MIN_CHUNK_LENGTH: '1',
        LLM_BACKEND: 'local',
        INFERENCE_URL: inference.origin,
        INFERENCE_TIMEOUT_SECONDS: '30',
        // DocQA's own reset limit far above the proxy's, so every 429 below is nginx's.
        RATE_LIMIT_RESET: '1000r/s',
        RATE_LIMIT_RESET_BURST: '1000',
        ...database.env,
      }),
    });
    port = await freePort();
    const config = path.join(dir, 'nginx.conf');
    const rendered = render(config, {
      NGINX_LISTEN: `127.0.0.1:${port}`,
      NGINX_UPSTREAM: new URL(server.url).host,
      STACK_PORT: String(port),
      RATE_LIMIT_RESET: '1r/m',
      RATE_LIMIT_RESET_BURST: '3',
      UPLOAD_MAX_BODY_SIZE: '3m',
    });
    expect(rendered.status, rendered.stderr).to.equal(0);
    nginx = await startNginx(dir, config, port);
    const login = await send(port, 'POST', '/api/auth/login', { json: { username: 'admin', password: adminPassword } });
    expect(login.status, login.body).to.equal(200);
    token = (JSON.parse(login.body) as { access_token: string }).access_token;
  });
  after(async () => {
    await nginx?.stop();
    await server?.stop('SIGTERM');
    await inference?.close();
    await database?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [route, body, from] of [
    ['/api/auth/forgot-password', { email: 'nobody@example.com' }, '127.0.0.2'],
    ['/api/auth/reset-password', { token: 'not-a-real-token', new_password: 'a-new-password-1' }, '127.0.0.3'],
  ] as const) {
    it(`POST ${route} answers 429 in the API's error shape past RATE_LIMIT_RESET_BURST`, async () => {
      const statuses: number[] = [];
      let limited: Answer | undefined;
      for (let i = 0; i < 6; i++) {
        const answer = await send(port, 'POST', route, { from, json: body });
        statuses.push(answer.status);
        if (answer.status === 429) limited ??= answer;
      }
      // 1r/m with a burst of 3: four requests pass to DocQA (whatever it answers), then the proxy refuses.
      expect(statuses.slice(0, 4)).to.not.include(429);
      expect(statuses.slice(4)).to.deep.equal([429, 429]);
      expect(limited!.headers['content-type']).to.equal('application/json');
      expect(JSON.parse(limited!.body)).to.include({ code: 'rate_limited' });
      expect(Number(limited!.headers['retry-after'])).to.equal(60);
    });
  }

  it('the limit is per endpoint pair and POST only: health, login attempts and other methods pass', async () => {
    // 127.0.0.2 has used up its bucket on forgot-password above.
    expect(
      (
        await send(port, 'POST', '/api/auth/reset-password', {
          from: '127.0.0.2',
          json: { token: 'x', new_password: 'a-new-password-1' },
        })
      ).status,
    ).to.equal(429);
    for (let i = 0; i < 8; i++) {
      expect((await send(port, 'GET', '/api/health', { from: '127.0.0.2' })).status).to.equal(200);
      // Within DocQA's own allowance of failed sign-ins (SIGN_IN_ACCOUNT_FAILURES, 5): nginx adds no limit.
      if (i < 4)
        expect(
          (
            await send(port, 'POST', '/api/auth/login', {
              from: '127.0.0.2',
              json: { username: 'admin', password: 'wrong-password' },
            })
          ).status,
        ).to.equal(401);
    }
    expect((await send(port, 'GET', '/api/auth/forgot-password', { from: '127.0.0.2' })).status).to.equal(405);
  });

  it('streams an SSE chat answer through nginx as it is generated, not at its end', async () => {
    const upload = multipart(
      'invoices.txt',
      'Invoice retention policy.\n\nInvoices are archived for ten years in the finance vault.',
    );
    const stored = await send(port, 'POST', '/api/docs/upload', {
      body: upload.body,
      headers: { authorization: `Bearer ${token}`, 'content-type': upload.type },
    });
    expect(stored.status, stored.body).to.equal(202);
    await waitForIndexed(port, token, 1);

    const streamed = await chatStream(`http://127.0.0.1:${port}`, token, { query: 'How long are invoices archived?' });
    expect(streamed.status).to.equal(200);
    const deltas = streamed.events.filter((event) => event.type === 'delta');
    const done = streamed.events.find((event) => event.type === 'done');
    expect(deltas.map((event) => event.data.text).join('')).to.equal(slowAnswer);
    expect(done, JSON.stringify(streamed.events)).to.not.equal(undefined);
    // The stand-in spaces 8 pieces 300 ms apart (about 2.1 s): a proxy that buffered the response
    // would deliver them together with `done`. Generous margin: the first piece must precede
    // `done` by over half a second.
    const firstDelta = deltas[0]!;
    expect(
      done!.at - firstDelta.at,
      `first delta at ${firstDelta.at.toFixed(0)} ms, done at ${done!.at.toFixed(0)} ms`,
    ).to.be.greaterThan(500);
    expect(
      new Set(deltas.map((event) => Math.round(event.at / 100))).size,
      'pieces arrived at distinct times',
    ).to.be.greaterThan(3);
  });

  it('passes an upload within UPLOAD_MAX_BODY_SIZE and answers 413 in the API error shape above it', async () => {
    const within = multipart('within-limit.txt', textOfSize(2.5 * mib, 'within'));
    const accepted = await send(port, 'POST', '/api/docs/upload', {
      body: within.body,
      headers: { authorization: `Bearer ${token}`, 'content-type': within.type },
    });
    expect(accepted.status, accepted.body).to.equal(202);

    // 4 MB: under the FREE plan's 10 MB a file, so DocQA would take it; the proxy refuses it.
    const above = multipart('above-limit.txt', textOfSize(4 * mib, 'above'));
    const refused = await send(port, 'POST', '/api/docs/upload', {
      body: above.body,
      headers: { authorization: `Bearer ${token}`, 'content-type': above.type },
    });
    expect(refused.status).to.equal(413);
    expect(refused.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(refused.body)).to.include({ code: 'payload_too_large' });
  });

  it("the image's health check passes against the running server and fails against a closed port", async () => {
    const healthcheck = path.join(dockerDir, 'healthcheck.mjs');
    const up = spawnSync(process.execPath, [healthcheck], {
      env: { PATH: process.env.PATH ?? '', PORT: new URL(server.url).port },
      encoding: 'utf8',
    });
    expect(up.status, up.stderr).to.equal(0);
    const down = spawnSync(process.execPath, [healthcheck], {
      env: { PATH: process.env.PATH ?? '', PORT: String(await freePort()) },
      encoding: 'utf8',
    });
    expect(down.status).to.equal(1);
  });
});

async function waitForIndexed(port: number, token: string, count: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answer = await send(port, 'GET', '/api/docs?status=indexed', {
      headers: { authorization: `Bearer ${token}` },
    });
    if (answer.status === 200 && (JSON.parse(answer.body) as { total: number }).total >= count) return;
    if (Date.now() > deadline) throw new Error(`no document was indexed in time: ${answer.body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
