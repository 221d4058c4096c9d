import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startTestKernel, type TestKernel } from '@docqa/kernel/testing';
import { standardModules } from '@docqa/core/modules';
import { z } from 'zod';
import { createHandler, type DocqaHandler } from './app.js';
import { createServices, type AppServices } from './services.js';
import { defineRoute } from './route.js';
import type { Authenticator } from './access.js';
import { routes as productRoutes } from '../routes/index.js';

const nobody: Authenticator = { authenticate: async () => null };

// A fixed answer that cannot be made: express's route answers, and fails as every route does.
const failing = () => {
  throw new Error('secret internals');
};
const unmakeable = defineRoute({
  method: 'get',
  path: '/api/test/unmakeable',
  access: 'public',
  tag: 'Test',
  operationId: 'unmakeable',
  summary: 'fails',
  responses: {},
  fixedAnswer: failing,
  handler: failing,
});

interface Answer {
  status: number;
  /** Header names and values in the order they were sent. */
  headers: string[];
  body: Buffer;
}

function ask(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** The headers with the values that differ between any two answers (the date, a generated id) blanked. */
function comparable(headers: string[], generatedId: boolean): string[] {
  return headers.map((value, index) => {
    const name = headers[index - 1]?.toLowerCase();
    return index % 2 === 1 && (name === 'date' || (name === 'x-request-id' && generatedId)) ? '…' : value;
  });
}

const header = (answer: Answer, name: string) =>
  answer.headers[answer.headers.findIndex((value, index) => index % 2 === 0 && value.toLowerCase() === name) + 1];

describe('fixed answers before express (GET /api/version)', function () {
  let kernel: TestKernel;
  let services: AppServices;
  let handler: DocqaHandler;
  const servers: http.Server[] = [];
  // The server as it runs (fast path first), and one of the same app that only express answers.
  let fast: number;
  let expressOnly: number;
  let expressRequests = 0;
  const logs: string[] = [];

  const listen = async (listener: http.RequestListener) => {
    const server = http.createServer(listener);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  before(async () => {
    kernel = await startTestKernel({
      logs,
      modules: standardModules,
      env: { LOG_LEVEL: 'INFO', TRUST_PROXY: 'loopback' },
    });
    services = createServices(kernel);
    handler = createHandler({ kernel, services, routes: [...productRoutes, unmakeable], authenticator: nobody });
    // What reaches express's request handling, the router's walk over the routes included.
    // express's own entry point (application.js), which its types leave out.
    const app = handler.app as unknown as { handle: (...args: unknown[]) => void };
    const handle = app.handle.bind(app);
    app.handle = (req: unknown, res: unknown, next?: unknown) => {
      expressRequests += 1;
      return handle(req, res, next);
    };
    fast = await listen(handler.listener);
    expressOnly = await listen(handler.app);
  });
  after(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await kernel.dispose();
  });

  const cases: Array<[string, string, Record<string, string>]> = [
    ['GET', '/api/version', {}],
    ['HEAD', '/api/version', {}],
    ['GET', '/api/version?verbose=1', { 'x-request-id': 'caller-id.1' }],
    ['GET', '/api/version', { 'x-request-id': 'not safe!' }],
    ['HEAD', '/api/version', { 'x-request-id': 'caller-id.2', 'content-type': 'application/json' }],
    // Behind a reverse proxy: nothing of the answer depends on what it forwards.
    ['GET', '/api/version', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https', origin: 'https://x' }],
  ];

  it('answers as express does: status, body bytes and every header in order, request ids echoed or made', async () => {
    for (const [method, path, headers] of cases) {
      const viaExpress = await ask(expressOnly, method, path, headers);
      const viaFastPath = await ask(fast, method, path, headers);
      const generatedId = headers['x-request-id'] !== 'caller-id.1' && headers['x-request-id'] !== 'caller-id.2';
      const label = `${method} ${path} ${JSON.stringify(headers)}`;
      expect(viaFastPath.status, label).to.equal(viaExpress.status).and.equal(200);
      expect(viaFastPath.body.equals(viaExpress.body), label).to.equal(true);
      expect(comparable(viaFastPath.headers, generatedId), label).to.deep.equal(
        comparable(viaExpress.headers, generatedId),
      );
      const id = header(viaFastPath, 'x-request-id');
      if (generatedId)
        expect(id, label)
          .to.match(/^[0-9a-f-]{36}$/)
          .and.not.equal(header(viaExpress, 'x-request-id'));
      else expect(id, label).to.equal(headers['x-request-id']);
    }
    const body = JSON.parse((await ask(fast, 'GET', '/api/version')).body.toString()) as Record<string, string>;
    expect(Object.keys(body)).to.deep.equal(['version', 'commit', 'build_date']);
  });

  it("is answered without express's router, and every other request still goes through it", async () => {
    const before = expressRequests;
    await ask(fast, 'GET', '/api/version');
    await ask(fast, 'HEAD', '/api/version?x=1');
    expect(expressRequests - before, 'fixed answers reach express').to.equal(0);
    // Other spellings express matches, other methods, other routes, and a fixed answer that fails.
    const others = [
      ['GET', '/api/VERSION', 200],
      ['GET', '/api/version/', 200],
      ['POST', '/api/version', 405],
      ['DELETE', '/api/version', 405],
      ['GET', '/api/versions', 404],
      ['GET', '/api/health', 200],
      ['GET', '/api/test/unmakeable', 500],
    ] as const;
    for (const [method, path, status] of others) {
      const viaFastPath = await ask(fast, method, path);
      const viaExpress = await ask(expressOnly, method, path);
      expect(viaFastPath.status, `${method} ${path}`).to.equal(status).and.equal(viaExpress.status);
      expect(header(viaFastPath, 'allow'), `${method} ${path}`).to.equal(header(viaExpress, 'allow'));
    }
    expect(expressRequests - before).to.equal(2 * others.length);
  });

  it('logs the same access line and records the same metrics as express', async () => {
    const counted = async () => {
      const requests = await services.metrics.registry.getSingleMetric('docqa_http_requests_total')!.get();
      const durations = await services.metrics.registry.getSingleMetric('docqa_http_request_duration_seconds')!.get();
      const version = (labels: Record<string, unknown>) => labels.route === '/api/version';
      // Copies: prom-client hands out the objects it goes on counting in.
      const copy = (value: { labels: Record<string, unknown>; value: number }) => ({ ...value, labels: value.labels });
      return {
        requests: requests.values.filter((value) => version(value.labels)).map(copy),
        timed: durations.values
          .filter((value) => version(value.labels) && (value as { metricName?: string }).metricName?.endsWith('_count'))
          .map(copy),
      };
    };
    const linesOf = (id: string) =>
      logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.request_id === id)
        .map(({ time: _time, duration_ms: duration, request_id: _id, pid: _pid, ...line }) => {
          expect(duration).to.be.a('number');
          return line;
        });
    const run = async (port: number, tag: string) => {
      const before = await counted();
      await ask(port, 'GET', '/api/version', { 'x-request-id': `${tag}-get` });
      await ask(port, 'HEAD', '/api/version', { 'x-request-id': `${tag}-head` });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const after = await counted();
      const delta = (of: 'requests' | 'timed') =>
        after[of].map((value) => ({
          labels: value.labels,
          added: value.value - (before[of].find((old) => sameLabels(old.labels, value.labels))?.value ?? 0),
        }));
      return {
        requests: delta('requests'),
        timed: delta('timed'),
        get: linesOf(`${tag}-get`),
        head: linesOf(`${tag}-head`),
      };
    };
    const viaExpress = await run(expressOnly, 'express');
    const viaFastPath = await run(fast, 'fast');
    expect(viaFastPath.get).to.deep.equal(viaExpress.get);
    expect(viaFastPath.head).to.deep.equal(viaExpress.head);
    expect(viaFastPath.get).to.have.length(1);
    expect(viaFastPath.get[0]).to.include({ msg: 'request', method: 'GET', path: '/api/version', status: 200 });
    expect(viaFastPath.requests).to.deep.equal(viaExpress.requests);
    expect(viaFastPath.timed).to.deep.equal(viaExpress.timed);
    expect(viaFastPath.requests.filter((value) => value.added > 0)).to.deep.equal([
      { labels: { method: 'GET', route: '/api/version', status: '200' }, added: 1 },
      { labels: { method: 'HEAD', route: '/api/version', status: '200' }, added: 1 },
    ]);
  });
});

describe('fixed answers: what may have one', function () {
  let kernel: TestKernel;
  before(async () => {
    kernel = await startTestKernel({ modules: standardModules });
  });
  after(() => kernel.dispose());

  it('refuses, at start, a fixed answer on a route that needs a token, takes inputs or is not a GET', () => {
    const answer = () => ({ status: 200, body: {} });
    const route = (changes: Record<string, unknown>) =>
      defineRoute({
        method: 'get',
        path: '/api/test/fixed',
        access: 'public',
        tag: 'Test',
        operationId: 'fixed',
        summary: 'fixed',
        responses: {},
        fixedAnswer: answer,
        handler: answer,
        ...changes,
      });
    const make = (changes: Record<string, unknown>) => () =>
      createHandler({ kernel, routes: [route(changes)], authenticator: nobody });
    expect(make({})).not.to.throw();
    for (const changes of [
      { access: 'required' },
      { method: 'post' },
      { plan: 'PRO' },
      { request: { query: z.object({ q: z.string() }) } },
      { middleware: () => [] },
      { path: '/api/test/fixed/{id}' },
    ]) {
      expect(make(changes), JSON.stringify(changes)).to.throw(/a fixed answer is for public GET routes/);
    }
  });
});

function sameLabels(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
