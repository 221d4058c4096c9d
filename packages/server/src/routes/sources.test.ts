import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, definePreset, type ConnectorEvent, type ConnectorProvider } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import connectorTemplate from '@docqa/example-connector-template';
import { startServer, type RunningServer } from '../server.js';
import { standardPreset } from '../presets/standard.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const record = (id: string, body: string, updated: string, extra: Json = {}) =>
  JSON.stringify({ id, title: `Title ${id}`, body, updated_at: updated, ...extra });

// An integration with a secret, to check how an update treats it; it syncs nothing.
const tokenFeed = definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'integration-token-feed',
  configSchema: z.object({}),
  deps: {},
  init: (): ConnectorProvider<{ url: string; token?: string }> => ({
    type: 'token-feed',
    displayName: 'Feed with a token',
    sourceKind: 'integration',
    sourceConfigSchema: z.strictObject({ url: z.string(), token: z.string().optional() }),
    secretFields: ['token'],
    capabilities: { incremental: false, deletions: false, acls: false },
    open: async () => ({ sync: async function* () {} }),
  }),
});

// An integration that finds 40 documents, one every 25 ms: a sync long enough to cancel midway.
const slowFeed = definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'integration-slow-feed',
  configSchema: z.object({}),
  deps: {},
  init: (): ConnectorProvider<Record<string, never>> => ({
    type: 'slow-feed',
    displayName: 'A slow feed',
    sourceKind: 'integration',
    sourceConfigSchema: z.strictObject({}),
    secretFields: [],
    capabilities: { incremental: false, deletions: false, acls: false },
    open: async () => ({
      async *sync(_cursor: string | null, signal: AbortSignal): AsyncGenerator<ConnectorEvent> {
        for (let i = 0; i < 40 && !signal.aborted; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          const text = `Slow document ${i} with enough words to make one chunk of its own.`;
          yield {
            type: 'upsert',
            document: {
              externalId: `slow-${i}`,
              path: `slow-${i}.txt`,
              open: async () =>
                (async function* () {
                  yield new Uint8Array(Buffer.from(text));
                })(),
            },
          };
        }
      },
    }),
  }),
});

describe('connectors, integrations and jobs (through HTTP)', function () {
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let viewer: string;
  let feed: string;
  let allowed: string;

  const call = async (method: string, route: string, body?: unknown, token = admin) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const waitForJob = async (id: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = (await call('GET', `/api/jobs/${id}`)).body;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status) || Date.now() > deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const waitIndexed = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const items = (await call('GET', '/api/docs?limit=100')).body.items as Json[];
      if (items.every((d) => d.status === 'indexed' || d.status === 'failed') || Date.now() > deadline) return items;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-sources-'));
    feed = path.join(dataDir, 'feed.jsonl');
    allowed = path.join(dataDir, 'allowed');
    fs.mkdirSync(path.join(allowed, 'inside'), { recursive: true });
    fs.writeFileSync(
      path.join(allowed, 'inside', 'note.txt'),
      'A note inside the allowed directory, long enough to index.',
    );
    fs.writeFileSync(
      feed,
      [
        record('a', 'Alpha body text that is long enough to be a chunk of its own.', '2026-01-01T00:00:00Z'),
        record('b', 'Beta body text that is long enough to be a chunk of its own.', '2026-01-02T00:00:00Z'),
      ].join('\n'),
    );
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
        RAG_MIN_CHUNK_LENGTH: '10',
        CONNECTOR_ALLOWED_PATHS: allowed,
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'standard + template',
          plugins: (context) => [
            ...standardPreset.plugins(context),
            { plugin: connectorTemplate },
            { plugin: tokenFeed },
            { plugin: slowFeed },
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
    await call('POST', '/api/auth/users', { username: 'vic', password: 'vic-password-1' });
    viewer = await login('vic', 'vic-password-1');
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates an integration with a validated config; viewers read but do not write', async () => {
    const bad = await call('POST', '/api/integrations', {
      name: 'Feed',
      type: 'json-feed',
      config: { path: 'relative.jsonl' },
    });
    expect([bad.status, bad.body.code]).to.deep.equal([422, 'validation_failed']);
    expect(bad.body.errors[0].field).to.match(/^body\.config\.path/);
    const unknownType = await call('POST', '/api/integrations', { name: 'Feed', type: 'nope', config: {} });
    expect(unknownType.status).to.equal(422);
    expect(
      (await call('POST', '/api/integrations', { name: 'Feed', type: 'json-feed', config: { path: feed } }, viewer))
        .status,
    ).to.equal(403);
    const created = await call('POST', '/api/integrations', {
      name: 'Feed',
      type: 'json-feed',
      config: { path: feed },
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ name: 'Feed', type: 'json-feed', enabled: true, document_count: 0 });
    expect(
      (await call('POST', '/api/integrations', { name: 'feed', type: 'json-feed', config: { path: feed } })).status,
    ).to.equal(409);
    const list = await call('GET', '/api/integrations', undefined, viewer);
    expect(list.body.items.map((i: Json) => i.name)).to.deep.equal(['Feed']);
    expect((await call('GET', '/api/connectors', undefined, viewer)).body.total).to.equal(0);
  });

  it('refuses a filesystem connector outside CONNECTOR_ALLOWED_PATHS or with missing fields, creating and changing nothing', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'Not for DocQA.');
    fs.symlinkSync(outside, path.join(allowed, 'link-out'));
    const refusals: Array<[string, unknown, RegExp]> = [
      ['path traversal', { path: `${allowed}/inside/../../${path.basename(outside)}` }, /^body\.config\.path/],
      ['a symlink out of the allowed directories', { path: path.join(allowed, 'link-out') }, /^body\.config\.path$/],
      ['missing fields', {}, /^body\.config\.path/],
      ['a path that is not absolute', { path: 'inside' }, /^body\.config\.path/],
    ];
    try {
      for (const [what, config, field] of refusals) {
        const res = await call('POST', '/api/connectors', { name: `Refused ${what}`, type: 'filesystem', config });
        expect([res.status, res.body.code], what).to.deep.equal([422, 'validation_failed']);
        expect(res.body.errors?.[0]?.field, what).to.match(field);
      }
      expect((await call('GET', '/api/connectors')).body.total, 'no connector was created').to.equal(0);

      const good = await call('POST', '/api/connectors', {
        name: 'Inside',
        type: 'filesystem',
        config: { path: path.join(allowed, 'inside') },
      });
      expect(good.status).to.equal(201);
      const moved = await call('PUT', `/api/connectors/${good.body.id}`, {
        name: 'Inside',
        type: 'filesystem',
        config: { path: path.join(allowed, 'link-out') },
      });
      expect(moved.status).to.equal(422);
      expect(
        (await call('GET', `/api/connectors/${good.body.id}`)).body.config.path,
        'the stored config is unchanged',
      ).to.equal(path.join(allowed, 'inside'));
      expect((await call('DELETE', `/api/connectors/${good.body.id}`)).status).to.equal(204);
      expect((await call('GET', '/api/jobs?kind=scan')).body.total, 'no sync was started').to.equal(0);
      expect((await call('GET', '/api/docs')).body.total, 'no document was stored').to.equal(0);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
      fs.rmSync(path.join(allowed, 'link-out'));
    }
  });

  it('syncs as a job with progress: documents arrive, get indexed, change and go', async () => {
    const integration = (await call('GET', '/api/integrations')).body.items[0];
    const started = await call('POST', `/api/integrations/${integration.id}/sync`, undefined, viewer);
    expect(started.status, 'viewers may not start syncs').to.equal(403);
    const { job_id } = (await call('POST', `/api/integrations/${integration.id}/sync`)).body;
    const job = await waitForJob(job_id);
    expect(job).to.include({
      kind: 'sync',
      status: 'succeeded',
      source_type: 'integration',
      source_id: integration.id,
    });
    expect(job.result).to.deep.include({ upserted: 2, deleted: 0 });
    let docs = await waitIndexed();
    expect(docs.map((d) => [d.path, d.status, d.source_type])).to.have.deep.members([
      ['a', 'indexed', 'integration'],
      ['b', 'indexed', 'integration'],
    ]);

    fs.writeFileSync(
      feed,
      [
        record('a', 'Alpha body text, changed, still long enough to be a chunk.', '2026-02-01T00:00:00Z'),
        record('b', '', '2026-02-02T00:00:00Z', { deleted: true }),
        record('c', 'Gamma body text that is long enough to be a chunk of its own.', '2026-02-03T00:00:00Z'),
      ].join('\n'),
    );
    const second = await waitForJob((await call('POST', `/api/integrations/${integration.id}/sync`)).body.job_id);
    expect(second.result).to.deep.include({ upserted: 2, deleted: 1 });
    docs = await waitIndexed();
    expect(docs.map((d) => d.path).sort()).to.deep.equal(['a', 'c']);
    const jobs = await call('GET', `/api/jobs?kind=sync&source_id=${integration.id}`);
    expect(jobs.body.total).to.equal(2);
    expect(jobs.body.items[0].progress.done).to.be.a('number');
    const ingestJobs = await call('GET', '/api/jobs?kind=ingest&status=succeeded');
    expect(ingestJobs.body.total).to.be.at.least(4);
    const cancelFinished = await call('POST', `/api/jobs/${job_id}/cancel`);
    expect([cancelFinished.status, cancelFinished.body.code]).to.deep.equal([409, 'conflict']);
    expect((await call('GET', '/api/jobs/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
  });

  it('shows finished jobs for JOB_STATE_TTL_SECONDS, in the list and by id alike', async () => {
    const before = (await call('GET', '/api/jobs?kind=sync')).body;
    const oldest = before.items.at(-1) as Json;
    await server.kernel.db.query(`update pgboss.job set completed_on = now() - interval '2 days' where id = $1`, [
      oldest.id,
    ]);
    const after = (await call('GET', '/api/jobs?kind=sync')).body;
    expect(after.total).to.equal(before.total - 1);
    expect(after.items.map((job: Json) => job.id)).to.not.include(oldest.id);
    const expired = await call('GET', `/api/jobs/${oldest.id}`);
    expect([expired.status, expired.body.code]).to.deep.equal([404, 'not_found']);
    const newest = before.items[0] as Json;
    expect((await call('GET', `/api/jobs/${newest.id}`)).body).to.include({ id: newest.id, status: 'succeeded' });
  });

  it('an update keeps a secret it leaves out or sends as ***, and clears it on an explicit null', async () => {
    const created = await call('POST', '/api/integrations', {
      name: 'Tokened',
      type: 'token-feed',
      config: { url: 'feed', token: 's3cret' },
    });
    expect([created.status, created.body.config.token]).to.deep.equal([201, '***']);
    const stored = async () =>
      server.services.sources.secretsOf(await server.services.sources.get('integration', created.body.id));
    const put = (config: Record<string, unknown>) =>
      call('PUT', `/api/integrations/${created.body.id}`, { name: 'Tokened', type: 'token-feed', config });
    expect((await put({ url: 'feed-2' })).status).to.equal(200);
    expect(await stored()).to.deep.equal({ token: 's3cret' });
    expect((await put({ url: 'feed-3', token: '***' })).status).to.equal(200);
    expect(await stored()).to.deep.equal({ token: 's3cret' });
    expect((await put({ url: 'feed-4', token: null })).status).to.equal(200);
    expect(await stored()).to.deep.equal({});
    expect((await call('DELETE', `/api/integrations/${created.body.id}`)).status).to.equal(204);
  });

  it('cancelling a sync cancels the indexing it queued', async () => {
    const source = (await call('POST', '/api/integrations', { name: 'Slow', type: 'slow-feed', config: {} })).body;
    const { job_id: syncId } = (await call('POST', `/api/integrations/${source.id}/sync`)).body;
    const started = () =>
      server.kernel.jobs.list({ queues: ['ingest'], data: { startedBy: syncId }, limit: 100, offset: 0 });
    for (let i = 0; i < 100 && (await started()).total < 5; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await started()).total).to.be.at.least(5);
    expect((await call('POST', `/api/jobs/${syncId}/cancel`)).status).to.equal(202);
    expect((await waitForJob(syncId)).status).to.equal('cancelled');
    // The cancel answers at once and cancels the sync's indexing as it goes: within seconds, none is left.
    const unfinished = () =>
      server.kernel.jobs.list({
        queues: ['ingest'],
        states: ['queued', 'running'],
        data: { startedBy: syncId },
        limit: 100,
        offset: 0,
      });
    for (let i = 0; i < 100 && (await unfinished()).total > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await unfinished()).total).to.equal(0);
    const stillPending = async () =>
      ((await call('GET', `/api/docs?integration_id=${source.id}&limit=100`)).body.items as Json[]).filter(
        (doc) => doc.status === 'pending' || doc.status === 'indexing',
      ).length;
    for (let i = 0; i < 50 && (await stillPending()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await started()).total, 'the sync stopped queueing').to.be.below(40);
    // A document whose indexing was cancelled says so, and is indexed by the next sync.
    const docs = (await call('GET', `/api/docs?integration_id=${source.id}&limit=100`)).body.items as Json[];
    expect(docs.filter((doc) => doc.status === 'pending' || doc.status === 'indexing')).to.deep.equal([]);
    expect((await call('DELETE', `/api/integrations/${source.id}`)).status).to.equal(204);
  });

  it('scans asked at once share one job: one job per source at a time', async () => {
    const integration = (await call('GET', '/api/integrations')).body.items[0];
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', `/api/integrations/${integration.id}/sync`)),
    );
    expect(answers.map((answer) => answer.status)).to.deep.equal(Array(8).fill(202));
    const jobIds = new Set(answers.map((answer) => answer.body.job_id as string));
    expect(jobIds.size).to.equal(1);
    const job = await waitForJob([...jobIds][0] as string);
    expect(job.status).to.equal('succeeded');
    expect(job.result).to.not.have.property('skipped', 'Another sync of this source was already running.');
  });

  it('sync-all starts one job per enabled source and deleting a source removes its documents', async () => {
    const all = await call('POST', '/api/connectors/sync-all');
    expect(all.status).to.equal(202);
    expect(all.body.job_ids).to.have.length(1);
    await waitForJob(all.body.job_ids[0]);
    const integration = (await call('GET', '/api/integrations')).body.items[0];
    expect(integration.last_sync_status).to.equal('succeeded');
    expect((await call('DELETE', `/api/integrations/${integration.id}`)).status).to.equal(204);
    expect((await call('GET', '/api/docs')).body.total).to.equal(0);
    expect((await call('GET', `/api/integrations/${integration.id}`)).status).to.equal(404);
  });
});
