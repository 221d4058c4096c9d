import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { expect } from 'chai';
import pg from 'pg';
import { startTestKernel, type TestKernel } from '@docqa/kernel/testing';
import { createApp } from './app.js';
import { defineRoute } from './route.js';
import type { Authenticator } from './access.js';
import { standardModules } from '@docqa/core/modules';

// A statement the test can tell apart in pg_stat_activity; the sleep outlasts any test.
const marker = 'docqa_statement_limits_test';
const slowSql = `select pg_sleep(120) as ${marker}`;

/** A route whose one statement outlasts every limit, through the plugins' Db or the raw pool (as MikroORM). */
const slow = (via: 'db' | 'pool', method: 'get' | 'post' = 'get') =>
  defineRoute({
    method,
    path: `/api/test/slow-${via}`,
    // A POST is cancelled only when its route says so, as search and chat do.
    cancelOnDisconnect: method === 'post',
    access: 'public',
    tag: 'Test',
    operationId: `slow_${via}_${method}`,
    summary: 'runs a slow statement',
    responses: { 200: { description: 'never' } },
    handler: async ({ kernel }) => {
      if (via === 'db') await kernel.db.query(slowSql);
      else await kernel.connection.pool.query(slowSql);
      return { status: 200, body: {} };
    },
  });

const showTimeout = defineRoute({
  method: 'get',
  path: '/api/test/timeout',
  access: 'public',
  tag: 'Test',
  operationId: 'show_timeout',
  summary: 'the statement_timeout a request runs with',
  responses: { 200: { description: 'the setting' } },
  handler: async ({ kernel }) => {
    const { rows } = await kernel.db.query<{ statement_timeout: string }>('show statement_timeout');
    return { status: 200, body: { timeout: rows[0]?.statement_timeout } };
  },
});

const nobody: Authenticator = { authenticate: async () => null };

async function serve(kernel: TestKernel): Promise<{ server: http.Server; base: string }> {
  const app = createApp({
    kernel,
    routes: [slow('db'), slow('pool'), slow('db', 'post'), showTimeout],
    authenticator: nobody,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Statements of this test running on the server right now (another connection: the pool may be busy). */
async function runningSlowStatements(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
        where state = 'active' and query like '%' || $1 || '%' and pid <> pg_backend_pid()`,
      [`as ${marker}`],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  // Generous: a shared test machine may be slow; the statement itself would run for 120 s.
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Never happened: ${what}`);
}

describe('statement limits of requests (PostgreSQL server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let server: http.Server;
  let base: string;

  before(async function () {
    if (!process.env.TEST_DATABASE_URL) this.skip();
    kernel = await startTestKernel({
      env: { REQUEST_STATEMENT_TIMEOUT_SECONDS: '1' },
      modules: standardModules,
    });
    ({ server, base } = await serve(kernel));
  });
  after(async () => {
    if (server) await new Promise((resolve) => server.close(resolve));
    await kernel?.dispose();
  });

  for (const via of ['db', 'pool'] as const) {
    it(`stops a request's slow statement at REQUEST_STATEMENT_TIMEOUT_SECONDS with 504 query_timeout (${via})`, async () => {
      const res = await fetch(`${base}/api/test/slow-${via}`);
      expect(res.status).to.equal(504);
      expect(res.headers.get('content-type')).to.match(/application\/json/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.code).to.equal('query_timeout');
      expect(body.limit_seconds).to.equal(1);
      expect(body.detail).to.contain('REQUEST_STATEMENT_TIMEOUT_SECONDS');
    });
  }

  it('sets the timeout on the connections of requests only, not of jobs or start-up', async () => {
    const res = await fetch(`${base}/api/test/timeout`);
    expect(await res.json()).to.deep.equal({ timeout: '1s' });
    // The same pooled connection (the last one released), now outside any request.
    const { rows } = await kernel.db.query<{ statement_timeout: string }>('show statement_timeout');
    expect(rows[0]?.statement_timeout).to.equal('0');
  });

  it('cancels the running statement when the client of a read (GET, or a POST like search) goes away', async () => {
    const off = await startTestKernel({
      env: { REQUEST_STATEMENT_TIMEOUT_SECONDS: '0' },
      modules: standardModules,
    });
    const started = await serve(off);
    try {
      const url = off.connection.url as string;
      for (const method of ['GET', 'POST']) {
        const controller = new AbortController();
        const request = fetch(`${started.base}/api/test/slow-db`, { method, signal: controller.signal }).catch(
          (error: Error) => error,
        );
        await eventually(
          async () => (await runningSlowStatements(url)) === 1,
          `the slow statement started (${method})`,
        );
        controller.abort();
        expect(await request).to.be.instanceOf(Error);
        await eventually(
          async () => (await runningSlowStatements(url)) === 0,
          `the statement was cancelled (${method})`,
        );
      }
    } finally {
      await new Promise((resolve) => started.server.close(resolve));
      await off.dispose();
    }
  });
});
