import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, definePreset, type ExtractorProvider, type Plan, type PlanLimits } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { licenseStandIn } from '../testing/license-stand-in.js';
import { startServer, type RunningServer } from '../server.js';
import { multipartBody, rawUpload } from '../testing/raw-upload.test-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

// Stand-ins for the real extractor plugins: upload checks only need their extensions and plan gates.
const extractor = (id: string, extension: string, requiredPlan?: Plan) =>
  definePlugin({
    apiVersion: 1,
    kind: 'extractor',
    id,
    configSchema: z.object({}),
    deps: {},
    init: (): ExtractorProvider => ({
      workerModule: 'file:///unused',
      mediaTypes: [extension === '.txt' ? 'text/plain' : 'text/csv'],
      extensions: [extension],
      ...(requiredPlan ? { requiredPlan } : {}),
      capabilities: { tables: false, ocr: false },
      extract: async () => ({ blocks: [], metadata: {} }),
    }),
  });

let plan: Plan = 'FREE';
let limits: PlanLimits = { documents: 100, fileSizeBytes: 10 * 1024 * 1024, storageBytes: 1024 ** 3 };
const license = licenseStandIn(() => ({ plan, limits }));

describe('documents API', function () {
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let viewer: string;
  let viewerId: string;

  const upload = async (files: Array<{ name: string; content: string | Buffer }>, token = admin) => {
    const form = new FormData();
    for (const file of files) form.append('file', new Blob([file.content]), file.name);
    const res = await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const call = async (method: string, route: string, body?: unknown, token = admin) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const stagingIsEmpty = () => fs.readdirSync(path.join(dataDir, 'blobs', 'tmp')).length === 0;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-docs-'));
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
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'test',
          plugins: () => [
            { plugin: license },
            { plugin: extractor('extractor-plain', '.txt') },
            { plugin: extractor('extractor-table', '.csv', 'PRO') },
          ],
        }),
      },
      port: 0,
      host: '127.0.0.1',
    });
    const login = async (username: string, password: string) =>
      (
        (await (
          await fetch(`${server.url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password }),
          })
        ).json()) as Json
      ).access_token as string;
    admin = await login('admin', 'admin-password-1');
    viewerId = (await call('POST', '/api/auth/users', { username: 'val', password: 'val-password-1' })).body.id;
    viewer = await login('val', 'val-password-1');
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores uploads, queues their indexing, and lists them', async () => {
    const res = await upload([
      { name: 'a.txt', content: 'alpha document' },
      { name: 'dir/b.txt', content: 'beta document' },
    ]);
    expect(res.status).to.equal(202);
    expect(res.body.documents.map((d: Json) => [d.filename, d.status, d.duplicate])).to.deep.equal([
      ['a.txt', 'pending', false],
      ['b.txt', 'pending', false],
    ]);
    expect(res.body.documents[0].job_id).to.match(/^[0-9a-f-]{36}$/);
    const stored = path.join(
      dataDir,
      'blobs',
      'sha256',
      res.body.documents[0].content_hash.slice(0, 2),
      res.body.documents[0].content_hash,
    );
    expect(fs.readFileSync(stored, 'utf8')).to.equal('alpha document');
    const list = await call('GET', '/api/docs?q=A.TXT', undefined, viewer);
    expect(list.body.items.map((d: Json) => d.filename)).to.deep.equal(['a.txt']);
    expect(stagingIsEmpty()).to.equal(true);
  });

  it('the same bytes again answer the stored document as a duplicate', async () => {
    const res = await upload([
      { name: 'copy.txt', content: 'alpha document' },
      { name: 'new.txt', content: 'gamma' },
      { name: 'new-again.txt', content: 'gamma' },
    ]);
    expect(res.body.documents.map((d: Json) => [d.filename, d.duplicate])).to.deep.equal([
      ['a.txt', true],
      ['new.txt', false],
      ['new.txt', true],
    ]);
    expect((await call('GET', '/api/docs')).body.total).to.equal(3);
  });

  it('refuses unknown types (415), plan-gated types (403) and oversized files (413), storing nothing', async () => {
    const before = (await call('GET', '/api/docs')).body.total;
    const unknown = await upload([
      { name: 'ok.txt', content: 'fine' },
      { name: 'image.bmp', content: 'BM....' },
    ]);
    expect([unknown.status, unknown.body.code]).to.deep.equal([415, 'unsupported_media_type']);
    expect(unknown.body.detail).to.include('image.bmp');
    const gated = await upload([{ name: 'table.csv', content: 'a,b\n1,2' }]);
    expect([gated.status, gated.body.code, gated.body.required_plan]).to.deep.equal([403, 'plan_required', 'PRO']);
    limits = { ...limits, fileSizeBytes: 1024 * 1024 };
    const big = await upload([{ name: 'big.txt', content: Buffer.alloc(3 * 1024 * 1024, 'x') }]);
    expect([big.status, big.body.code]).to.deep.equal([413, 'file_too_large']);
    limits = { ...limits, fileSizeBytes: 10 * 1024 * 1024 };
    expect((await call('GET', '/api/docs')).body.total).to.equal(before);
    expect(stagingIsEmpty()).to.equal(true);
  });

  it('enforces the document count and storage limits of the plan', async () => {
    limits = { ...limits, documents: 4 };
    const fourth = await upload([{ name: 'four.txt', content: 'four' }]);
    expect(fourth.status).to.equal(202);
    const fifth = await upload([{ name: 'five.txt', content: 'five' }]);
    expect([fifth.status, fifth.body.code, fifth.body.limit, fifth.body.current]).to.deep.equal([
      403,
      'plan_limit',
      4,
      4,
    ]);
    limits = { ...limits, documents: 100, storageBytes: 100 };
    const storage = await upload([{ name: 'fits-not.txt', content: 'x'.repeat(200) }]);
    expect([storage.status, storage.body.code]).to.deep.equal([403, 'plan_limit']);
    limits = { ...limits, storageBytes: 1024 ** 3 };
    expect(stagingIsEmpty()).to.equal(true);
  });

  it('a full plan refuses an upload whose parts arrive after the check, and the server lives on', async () => {
    const total = (await call('GET', '/api/docs')).body.total as number;
    limits = { ...limits, documents: total };
    // In a real server one unhandled rejection ends the process; in mocha's it must be caught here.
    const unhandled: unknown[] = [];
    const collect = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', collect);
    try {
      // The limit is checked before the first part is parsed; a rejection there had no handler yet.
      const { boundary, parts } = multipartBody([{ name: 'late.txt', content: 'comes late' }]);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => rawUpload(server.url, { token: admin, body: parts, boundary, delayMs: 30 })),
      );
      for (const answer of answers)
        expect([answer.status, answer.body?.code, answer.error]).to.deep.equal([403, 'plan_limit', null]);
      expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', collect);
      limits = { ...limits, documents: 100 };
    }
  });

  it('a client still sending a refused upload reads the answer, and its connection serves the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      limits = { ...limits, fileSizeBytes: 64 * 1024 };
      // 2 MiB in 64 KiB pieces: most of it is still to come when the 413 is sent.
      const { boundary, parts } = multipartBody([{ name: 'big.txt', content: Buffer.alloc(2 * 1024 * 1024, 'y') }]);
      const whole = Buffer.concat(parts);
      const pieces = Array.from({ length: Math.ceil(whole.length / 65_536) }, (_, i) =>
        whole.subarray(i * 65_536, (i + 1) * 65_536),
      );
      const refused = await rawUpload(server.url, { token: admin, body: pieces, boundary, agent });
      expect([refused.status, refused.body?.code, refused.error]).to.deep.equal([413, 'file_too_large', null]);
      const next = await new Promise<number>((resolve, reject) => {
        http
          .get(`${server.url}/api/health`, { agent }, (res) => resolve(res.resume().statusCode ?? 0))
          .on('error', reject);
      });
      expect(next).to.equal(200);
    } finally {
      limits = { ...limits, fileSizeBytes: 10 * 1024 * 1024 };
      agent.destroy();
    }
    expect(stagingIsEmpty()).to.equal(true);
  });

  it('malformed, truncated and aborted multipart bodies answer JSON errors and leave nothing staged', async () => {
    const before = (await call('GET', '/api/docs')).body.total;
    const { boundary, parts } = multipartBody([{ name: 'cut.txt', content: 'x'.repeat(50_000) }]);
    const noBoundary = await rawUpload(server.url, {
      token: admin,
      body: parts,
      boundary,
      contentType: 'multipart/form-data',
    });
    expect([noBoundary.status, noBoundary.body?.code]).to.deep.equal([400, 'bad_request']);
    // The declared length is longer than what comes, and the end boundary never does.
    const truncated = await rawUpload(server.url, {
      token: admin,
      body: [Buffer.concat(parts.slice(0, 1)).subarray(0, 20_000)],
      boundary,
      abortAfterPieces: 1,
      delayMs: 50,
    });
    // Either the client has gone before the 400 arrives, or it reads it as it goes.
    expect([0, 400]).to.include(truncated.status);
    const garbage = await rawUpload(server.url, {
      token: admin,
      body: Buffer.from('--nope\r\nthis is not multipart at all'),
      boundary,
    });
    expect([garbage.status, garbage.body?.code]).to.deep.equal([400, 'bad_request']);
    // The truncated upload's staged file goes when the server sees its client gone, which a busy
    // machine (CI runs two suites side by side) can take longer than a fixed pause to notice.
    const deadline = Date.now() + 5_000;
    while (!stagingIsEmpty() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call('GET', '/api/docs')).body.total).to.equal(before);
    expect(stagingIsEmpty()).to.equal(true);
    expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
  });

  it('a client that hangs up in the middle of a file leaves no staged file and no request waiting', async () => {
    const { boundary, parts } = multipartBody([{ name: 'hang-up.txt', content: 'z'.repeat(200_000) }]);
    const whole = Buffer.concat(parts);
    const answer = await rawUpload(server.url, {
      token: admin,
      body: [whole.subarray(0, 100_000), whole.subarray(100_000)],
      boundary,
      delayMs: 100,
      abortAfterPieces: 1,
    });
    expect(answer.status).to.equal(0);
    const deadline = Date.now() + 5_000;
    while (!stagingIsEmpty() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stagingIsEmpty()).to.equal(true);
  });

  it('a page past the end still answers the real total (documents, jobs, connectors, groups, schedules, audit)', async () => {
    plan = 'ENTERPRISE';
    try {
      for (const route of [
        '/api/docs',
        '/api/jobs',
        '/api/connectors',
        '/api/groups',
        '/api/schedules',
        '/api/audit',
      ]) {
        const first = await call('GET', route);
        expect(first.status, route).to.equal(200);
        const past = await call('GET', `${route}?offset=${Number(first.body.total) + 5}`);
        expect([past.body.items, past.body.total], route).to.deep.equal([[], first.body.total]);
      }
    } finally {
      plan = 'FREE';
    }
    expect((await call('GET', '/api/docs')).body.total).to.be.greaterThan(0);
  });

  it('answers one document by id, and filters the list by source', async () => {
    const [doc] = (await upload([{ name: 'one-by-id.txt', content: 'answered by its id' }])).body.documents;
    const one = await call('GET', `/api/docs/${doc.id}`);
    expect([one.status, one.body.id, one.body.filename, one.body.source_type]).to.deep.equal([
      200,
      doc.id,
      'one-by-id.txt',
      'upload',
    ]);
    expect((await call('GET', '/api/docs/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    const all = (await call('GET', '/api/docs')).body.total;
    expect((await call('GET', '/api/docs?source_type=upload')).body.total).to.equal(all);
    expect((await call('GET', '/api/docs?source_type=connector')).body.total).to.equal(0);
    // A connector's id used to be ignored, listing every document.
    expect((await call('GET', '/api/docs?connector_id=00000000-0000-4000-8000-000000000000')).body.total).to.equal(0);
    const both = await call(
      'GET',
      '/api/docs?connector_id=00000000-0000-4000-8000-000000000000&integration_id=00000000-0000-4000-8000-000000000001',
    );
    expect(both.status).to.equal(422);
  });

  it('access: viewers list but do not upload; non-multipart bodies are refused', async () => {
    expect((await upload([{ name: 'v.txt', content: 'v' }], viewer)).status).to.equal(403);
    const json = await call('POST', '/api/docs/upload', { file: 'x' });
    expect([json.status, json.body.code]).to.deep.equal([400, 'bad_request']);
    const empty = await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      body: new FormData(),
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(empty.status).to.equal(422);
  });

  it("hides documents outside the viewer's groups on ENTERPRISE", async () => {
    const secret = (await upload([{ name: 'secret.txt', content: 'top secret' }])).body.documents[0];
    plan = 'ENTERPRISE';
    const group = await call('POST', '/api/groups', { name: 'Board' });
    await call('PUT', `/api/access/document/${secret.id}`, { group_ids: [group.body.id] });
    const seen = async () =>
      (await call('GET', '/api/docs?limit=500', undefined, viewer)).body.items.map((d: Json) => d.filename);
    expect(await seen()).to.not.include('secret.txt');
    expect((await call('GET', `/api/docs/${secret.id}`, undefined, viewer)).status).to.equal(404);
    await call('PUT', `/api/groups/${group.body.id}/members/${viewerId}`);
    expect(await seen()).to.include('secret.txt');
    expect((await call('GET', `/api/docs/${secret.id}`, undefined, viewer)).status).to.equal(200);
    plan = 'FREE';
  });

  it('moves, deletes one and deletes in bulk; bytes go when no document uses them', async () => {
    const [doc] = (await upload([{ name: 'move-me.txt', content: 'to be moved' }])).body.documents;
    const moved = await call('POST', '/api/docs/move', {
      document_id: doc.id,
      target_path: 'archive/2026/move-me.txt',
    });
    expect(moved.body.path).to.equal('archive/2026/move-me.txt');
    expect(
      (await call('POST', '/api/docs/move', { document_id: doc.id, target_path: '../escape.txt' })).status,
    ).to.equal(422);
    const blob = path.join(dataDir, 'blobs', 'sha256', doc.content_hash.slice(0, 2), doc.content_hash);
    expect((await call('DELETE', `/api/docs/${doc.id}`)).status).to.equal(204);
    expect(fs.existsSync(blob)).to.equal(false);
    expect((await call('DELETE', `/api/docs/${doc.id}`)).status).to.equal(404);
    const all = (await call('GET', '/api/docs?limit=500')).body.items.map((d: Json) => d.id);
    const missing = '00000000-0000-4000-8000-000000000000';
    const bulk = await call('DELETE', '/api/docs/bulk', { ids: [...all.slice(0, 2), missing] });
    expect(bulk.body.deleted).to.have.members(all.slice(0, 2));
    expect(bulk.body.not_found).to.deep.equal([missing]);
  });
});
