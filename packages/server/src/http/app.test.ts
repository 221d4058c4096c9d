import { expect } from 'chai';
import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { startTestKernel, type TestKernel } from '@docqa/kernel/testing';
import { createApp } from './app.js';
import { defineRoute, type AnyRoute } from './route.js';
import type { Authenticator } from './access.js';
import { routes as productRoutes } from '../routes/index.js';
import { buildOpenApi } from './openapi.js';
import { standardModules } from '@docqa/core/modules';
import { injectedBase, injectingFetch } from '../testing/inject.test-support.js';

// Response bodies are checked field by field, so a loose JSON type is enough here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (res: Response) => res.json() as Promise<Record<string, any>>;

// Routes that exercise the mechanism itself; the product's own routes are checked further down.
const echo = defineRoute({
  method: 'post',
  path: '/api/test/echo/{id}',
  access: 'public',
  tag: 'Test',
  operationId: 'echo',
  summary: 'echo',
  request: {
    params: z.object({ id: z.uuid() }),
    query: z.object({ loud: z.enum(['yes', 'no']).default('no') }),
    body: z.strictObject({ name: z.string().min(1), count: z.number().int().positive() }),
  },
  responses: { 200: { description: 'echo' } },
  handler: ({ params, query, body }) => ({ status: 200, body: { id: params.id, loud: query.loud, ...body } }),
});

const guarded = (access: AnyRoute['access'], plan?: 'PRO') =>
  defineRoute({
    method: 'post',
    path: `/api/test/guarded/${access}${plan ? '-pro' : ''}/{id}`,
    access,
    ...(plan ? { plan } : {}),
    tag: 'Test',
    operationId: `guarded_${access}`,
    summary: 'guarded',
    request: { params: z.object({ id: z.uuid() }), body: z.object({ name: z.string() }) },
    responses: { 204: { description: 'ok' } },
    handler: () => ({ status: 204 }),
  });

const boom = defineRoute({
  method: 'get',
  path: '/api/test/boom',
  access: 'public',
  tag: 'Test',
  operationId: 'boom',
  summary: 'fails',
  responses: {},
  handler: () => {
    throw new Error('secret internals');
  },
});

// Accepts "Bearer <role>" so the access order can be observed without the identity service.
const roleFromHeader: Authenticator = {
  async authenticate(req) {
    const role = req.headers.authorization?.replace(/^Bearer /, '');
    if (!role) return null;
    if (!['viewer', 'editor', 'admin'].includes(role)) throw new DocqaError('unauthorized', 'bad token');
    return { userId: '1', username: role, role: role as 'viewer' };
  },
};

describe('HTTP skeleton', function () {
  let kernel: TestKernel;
  // No socket: requests go through the app's listener in this process.
  let fetch: (url: string, init?: RequestInit) => Promise<Response>;
  const base = injectedBase;

  before(async () => {
    kernel = await startTestKernel({
      env: { MAX_JSON_BODY: '1kb' },
      modules: standardModules,
    });
    const app = createApp({
      kernel,
      routes: [
        ...productRoutes,
        echo,
        guarded('required'),
        guarded('editor'),
        guarded('admin'),
        guarded('required', 'PRO'),
        boom,
      ],
      authenticator: roleFromHeader,
    });
    fetch = injectingFetch(app);
  });
  after(() => kernel.dispose());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const id = '7b1c0b8e-5c43-4d8e-9a43-8f3a2b1c0d9e';

  it('validates params, query and body and answers the handler result', async () => {
    const res = await post(`/api/test/echo/${id}?loud=yes`, JSON.stringify({ name: 'n', count: 2 }));
    expect(res.status).to.equal(200);
    expect(await readJson(res)).to.deep.equal({ id, loud: 'yes', name: 'n', count: 2 });
  });

  it('answers malformed JSON with 400 {detail, code}', async () => {
    const res = await post(`/api/test/echo/${id}`, '{"name": ');
    expect(res.status).to.equal(400);
    expect(await readJson(res)).to.deep.equal({ detail: 'The request body is not valid JSON.', code: 'bad_request' });
  });

  it('answers a wrong content type with 400', async () => {
    const res = await post(`/api/test/echo/${id}`, 'name=n', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).to.equal(400);
    expect((await readJson(res)).code).to.equal('bad_request');
  });

  it('answers validation failures with 422 and field errors', async () => {
    const res = await post(
      '/api/test/echo/not-a-uuid?loud=maybe',
      JSON.stringify({ name: '', count: 1.5, extra: true }),
    );
    expect(res.status).to.equal(422);
    const body = await readJson(res);
    expect(body.code).to.equal('validation_failed');
    expect(body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['params.id']);
    const res2 = await post(`/api/test/echo/${id}`, JSON.stringify({ name: '', count: 1.5, extra: true }));
    const fields = (await readJson(res2)).errors.map((e: { field: string }) => e.field);
    expect(fields).to.have.members(['body.name', 'body.count', 'body']);
  });

  it('refuses the NUL character anywhere in a request with 422, before it reaches the database', async () => {
    const login = await post('/api/auth/login', JSON.stringify({ username: 'ad\u0000min', password: 'whatever' }));
    expect([login.status, (await readJson(login)).errors]).to.deep.equal([
      422,
      [{ field: 'body.username', message: 'must not contain the NUL character (U+0000)' }],
    ]);
    const key = await post(`/api/test/echo/${id}`, JSON.stringify({ name: 'n', count: 1, ['bad\u0000key']: 1 }));
    expect((await readJson(key)).errors[0].field).to.equal('body.bad\\u0000key');
    const query = await post(`/api/test/echo/${id}?loud=%00`, JSON.stringify({ name: 'n', count: 1 }));
    expect([query.status, (await readJson(query)).errors[0].field]).to.deep.equal([422, 'query.loud']);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await post(`/api/test/echo/${id}`, JSON.stringify({ name: 'x'.repeat(2000), count: 1 }));
    expect(res.status).to.equal(413);
    expect((await readJson(res)).code).to.equal('payload_too_large');
  });

  it('answers an unknown path 404 and a known path with another method 405, same shape', async () => {
    const missing = await fetch(`${base}/api/nothing-here`);
    expect(missing.status).to.equal(404);
    expect(await readJson(missing)).to.deep.equal({ detail: 'There is no GET /api/nothing-here.', code: 'not_found' });
    const wrong = await fetch(`${base}/api/health`, { method: 'DELETE' });
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.get('allow')).to.equal('GET, HEAD');
    expect((await readJson(wrong)).code).to.equal('method_not_allowed');
  });

  it('hides internal errors behind a 500 that names the request id', async () => {
    const res = await fetch(`${base}/api/test/boom`, { headers: { 'x-request-id': 'trace-42' } });
    expect(res.status).to.equal(500);
    expect(res.headers.get('x-request-id')).to.equal('trace-42');
    const body = await readJson(res);
    expect(body.code).to.equal('internal');
    expect(body.detail).to.include('trace-42').and.not.include('secret internals');
  });

  it('generates a request id when none (or an unsafe one) is sent', async () => {
    const res = await fetch(`${base}/api/version`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('checks authentication, then role, then plan, before ids and bodies', async () => {
    const badBody = '{not json';
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['/api/test/guarded/required/not-a-uuid', {}, 401, 'unauthorized'],
      ['/api/test/guarded/editor/not-a-uuid', { authorization: 'Bearer viewer' }, 403, 'forbidden'],
      ['/api/test/guarded/admin/not-a-uuid', { authorization: 'Bearer editor' }, 403, 'forbidden'],
      ['/api/test/guarded/required-pro/not-a-uuid', { authorization: 'Bearer admin' }, 403, 'plan_required'],
      ['/api/test/guarded/admin/not-a-uuid', { authorization: 'Bearer admin' }, 422, 'validation_failed'],
      [`/api/test/guarded/admin/${id}`, { authorization: 'Bearer admin' }, 400, 'bad_request'],
    ];
    for (const [path, headers, status, code] of cases) {
      const res = await post(path, badBody, headers);
      expect(res.status, path).to.equal(status);
      const body = await readJson(res);
      expect(body.code, path).to.equal(code);
      if (status === 401) expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      if (code === 'plan_required') expect(body.required_plan).to.equal('PRO');
    }
  });

  it('changes runtime settings without a restart, all or nothing', async () => {
    const patch = (body: unknown, role = 'admin') =>
      fetch(`${base}/api/admin/settings`, {
        method: 'PATCH',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${role}` },
      });
    expect((await patch({ LOG_LEVEL: 'DEBUG' }, 'editor')).status).to.equal(403);
    const bad = await patch({ LOG_LEVEL: 'LOUD', RAG_MIN_CHUNK_LENGTH: 10 });
    expect(bad.status).to.equal(422);
    expect((await readJson(bad)).errors).to.deep.equal([
      { field: 'LOG_LEVEL', message: 'must be one of DEBUG, INFO, WARNING, ERROR' },
    ]);
    expect(kernel.settings.get('RAG_MIN_CHUNK_LENGTH')).to.equal(50);
    const good = await patch({ RAG_MIN_CHUNK_LENGTH: 10, RAG_QUERY_REWRITE_ENABLED: 'true' });
    expect(good.status).to.equal(200);
    const body = await readJson(good);
    expect(body.settings).to.include({ RAG_MIN_CHUNK_LENGTH: 10, RAG_QUERY_REWRITE_ENABLED: true });
    expect(body.derived).to.deep.equal({ EFFECTIVE_N_CTX: 8192 });
    const read = await readJson(
      await fetch(`${base}/api/admin/settings`, { headers: { authorization: 'Bearer admin' } }),
    );
    expect(read.settings.RAG_MIN_CHUNK_LENGTH).to.equal(10);
  });

  it('every route of the product table refuses a request without a token unless it is public', async () => {
    for (const route of productRoutes) {
      const path = route.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await fetch(base + path, {
        method: route.method.toUpperCase(),
        headers: { 'content-type': 'application/json' },
        body: route.method === 'get' ? null : '{}',
      });
      if (route.access === 'public') expect(res.status, `${route.method} ${route.path}`).to.not.equal(401);
      else expect(res.status, `${route.method} ${route.path}`).to.equal(401);
    }
  });

  it('describes the product routes in an OpenAPI 3.1 document', () => {
    const document = buildOpenApi(productRoutes, { version: '1.2.3' }) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; 'x-docqa-access': string }>>;
    };
    expect(document.openapi).to.equal('3.1.0');
    expect(document.paths['/api/health']?.get?.operationId).to.equal('getHealth');
    expect(document.paths['/api/version']?.get?.['x-docqa-access']).to.equal('public');
    const operationIds = productRoutes.map((route) => route.operationId);
    expect(new Set(operationIds).size, 'operation ids are unique').to.equal(operationIds.length);
  });
});
