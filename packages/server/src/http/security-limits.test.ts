import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, definePreset, type ExtractorProvider } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { applyRules } from '@docqa/core';
import { startServer, type RunningServer } from '../server.js';

type Json = Record<string, any>;

const slowExtractor = definePlugin({
  apiVersion: 1,
  kind: 'extractor',
  id: 'extractor-slow',
  configSchema: z.object({}),
  deps: {},
  init: (): ExtractorProvider => ({
    workerModule: new URL('../testing/slow-extractor.test-support.js', import.meta.url).href,
    mediaTypes: ['text/plain'],
    extensions: ['.txt'],
    capabilities: { tables: false, ocr: false },
    extract: async () => ({ blocks: [], metadata: {} }),
  }),
});

/**
 * The limits of docs/security.md that used to be fixed constants, each set low through its
 * variable on a real server, and seen to hold at the value set rather than the default.
 */
describe('security limits set by variables', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;

  const call = async (method: string, route: string, body?: unknown, token?: string) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Json };
  };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-limits-'));
    const database = process.env.TEST_DATABASE_URL
      ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL)
      : null;
    drop = database?.drop;
    server = await startServer({
      env: {
        ...testSecrets,
        DOCQA_DATA_DIR: dataDir,
        DOCQA_SECRETS_DIR: dataDir,
        LOG_LEVEL: 'ERROR',
        DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
        INDEX_EXTRACTION_TIMEOUT_SECONDS: '1',
        RULE_CPU_BUDGET_MS: '7',
        RULE_CPU_MS_PER_MILLION_CHARACTERS: '0',
        SIGN_IN_ACCOUNT_FAILURES: '1000',
        SIGN_IN_CLIENT_FAILURES: '1000',
        SIGN_IN_ACCOUNT_TOTAL_FAILURES: '1',
        SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS: '1',
        UPLOAD_DRAIN_SECONDS: '1',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({ id: 'standard', description: 'test', plugins: () => [{ plugin: slowExtractor }] }),
      },
      port: 0,
      host: '127.0.0.1',
    });
    admin = (await call('POST', '/api/auth/login', { username: 'admin', password: 'admin-password-1' })).body
      .access_token as string;
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('INDEX_EXTRACTION_TIMEOUT_SECONDS stops a document that takes longer to read, naming the setting', async () => {
    const form = new FormData();
    form.append('file', new Blob(['never read']), 'slow.txt');
    form.append('file', new Blob(['read at once']), 'quick.txt');
    const res = await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).to.equal(202);
    const started = Date.now();
    let slow: Json | undefined;
    while (Date.now() - started < 30_000) {
      const list = (await call('GET', '/api/docs', undefined, admin)).body;
      slow = (list.items as Json[]).find((doc) => doc.filename === 'slow.txt');
      if (slow?.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(slow?.status).to.equal('failed');
    expect(slow?.error).to.equal(
      'slow.txt took longer than 1 s to read (INDEX_EXTRACTION_TIMEOUT_SECONDS); it was given up.',
    );
    // The default would have held the document for 600 s.
    expect(Date.now() - started).to.be.below(15_000);
  });

  it('RULE_CPU_BUDGET_MS and RULE_CPU_MS_PER_MILLION_CHARACTERS make the rules’ CPU budget', async () => {
    expect(server.services.rules.runner.budget).to.deep.equal({ baseMs: 7, msPerMillionCharacters: 0 });
    const rule = {
      id: 'r1',
      field_name: 'noise',
      pattern: '(a+)+$',
      scope: 'full' as const,
      level: 'document' as const,
      chunk_boundary: false,
      priority: 0,
    };
    const text = `${'a'.repeat(40)}!`;
    const applied = await applyRules(
      [rule],
      { filename: 'x.txt', text, chunks: [] },
      {
        runner: server.services.rules.runner,
      },
    );
    // CPU time where Node.js can read a worker's (22.19, 24.6 and later), the wall clock before.
    expect(applied.failures.map((failure) => failure.ruleId)).to.deep.equal(['r1']);
    expect(applied.failures[0]?.error).to.match(/^its pattern used more than 7 ms of (CPU )?time$/);
  });

  it('SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS caps the Retry-After of the all-clients count', async () => {
    const wrong = () => call('POST', '/api/auth/login', { username: 'admin', password: 'wrong-password' });
    const waitOut = async () => {
      const refused = await wrong();
      expect(refused.status).to.equal(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 50));
      return retryAfter;
    };
    // One failure is allowed; each further one doubles the wait (1 s, 2 s, 4 s, …) up to the cap, here 1 s.
    expect((await wrong()).status).to.equal(401);
    expect((await wrong()).status).to.equal(401);
    const waits = [await waitOut()];
    expect((await wrong()).status).to.equal(401);
    waits.push(await waitOut());
    expect((await wrong()).status).to.equal(401);
    waits.push(await waitOut());
    expect(waits).to.deep.equal([1, 1, 1]);
    expect(
      (await call('POST', '/api/auth/login', { username: 'admin', password: 'admin-password-1' })).status,
    ).to.equal(200);
  });

  it('UPLOAD_DRAIN_SECONDS closes the connection of a client still sending after its answer', async () => {
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.on('error', () => undefined);
    // Without a token the upload is refused before its body is read; the client goes on sending.
    socket.write(
      'POST /api/docs/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000000\r\n\r\n',
    );
    const sender = setInterval(() => socket.writable && socket.write(Buffer.alloc(1024, 97)), 20);
    try {
      while (!answer.includes('\r\n\r\n')) await new Promise((resolve) => setTimeout(resolve, 10));
      const answered = Date.now();
      expect(answer).to.match(/^HTTP\/1\.1 401 /);
      const at = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(0), 10_000))]);
      expect(at, 'the connection was closed').to.be.greaterThan(0);
      // Closed after about the 1 s set, not the default 30 s.
      expect(at - answered).to.be.within(500, 5000);
    } finally {
      clearInterval(sender);
      socket.destroy();
    }
  });
});
