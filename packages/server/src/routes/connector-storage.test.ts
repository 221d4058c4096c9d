import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { definePlugin, definePreset, type ConnectorProvider, type PlanLimits } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import connectorTemplate from '@docqa/example-connector-template';
import { startServer, type RunningServer } from '../server.js';
import { licenseStandIn } from '../testing/license-stand-in.js';
import { standardPluginsWithLicense } from '../testing/standard-with-license.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** A connector DocQA reads but cannot write to (no storage capability). */
const readOnlyConnector = definePlugin({
  apiVersion: 1,
  kind: 'connector',
  id: 'connector-read-only',
  configSchema: z.object({}),
  deps: {},
  init: (): ConnectorProvider<Record<string, never>> => ({
    type: 'read-only',
    displayName: 'Read-only',
    sourceKind: 'connector',
    sourceConfigSchema: z.strictObject({}),
    secretFields: [],
    capabilities: { incremental: false, deletions: false, acls: false },
    open: async () => ({
      async *sync() {
        yield { type: 'checkpoint', cursor: 'done' };
      },
    }),
  }),
});

const freeLimits: PlanLimits = { documents: 100, fileSizeBytes: 10 * 1024 * 1024, storageBytes: 1024 ** 3 };
let limits: PlanLimits = freeLimits;
const license = licenseStandIn(() => ({ plan: 'FREE', limits }));

const noteText = (topic: string) =>
  `A note about ${topic}. It is long enough to make a chunk of its own, and says so twice: ${topic}.`;

describe("documents in a connector's storage: upload, move and delete with connector_id (through HTTP)", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let dataDir: string;
  let docs: string;
  let outside: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let editor: string;
  let viewer: string;
  let connectorId: string;

  const call = async (method: string, route: string, body?: unknown, token = admin) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  /** Fields go first, in order, then the files: as a browser's FormData sends what was appended. */
  const upload = async (
    files: Array<{ name: string; content: string | Buffer }>,
    options: {
      query?: string;
      fields?: Array<[string, string]>;
      fieldsAfter?: Array<[string, string]>;
      token?: string;
    } = {},
  ) => {
    const form = new FormData();
    for (const [name, value] of options.fields ?? []) form.append(name, value);
    for (const file of files) form.append('file', new Blob([file.content]), file.name);
    for (const [name, value] of options.fieldsAfter ?? []) form.append(name, value);
    const res = await fetch(`${server.url}/api/docs/upload${options.query ? `?${options.query}` : ''}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${options.token ?? admin}` },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const waitForJob = async (id: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = (await call('GET', `/api/jobs/${id}`)).body;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status) || Date.now() > deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const documents = async () => (await call('GET', '/api/docs?limit=500')).body.items as Json[];
  const waitIndexed = async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const items = await documents();
      if (items.every((d) => d.status === 'indexed' || d.status === 'failed') || Date.now() > deadline) return items;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const scan = async () => {
    const job = await waitForJob((await call('POST', `/api/connectors/${connectorId}/scan`)).body.job_id);
    expect(job.status, JSON.stringify(job)).to.equal('succeeded');
    await waitIndexed();
    return job.result as Json;
  };
  const chunkIds = async (documentId: string) =>
    (
      await server.kernel.db.query<{ id: string }>('select id from chunk where document_id = $1 order by position', [
        documentId,
      ])
    ).rows.map((row) => row.id);
  /** Everything below a directory (files, directories, links), relative: nothing written means no change here. */
  const entriesBelow = (directory: string) => fs.readdirSync(directory, { recursive: true }).map(String).sort();
  const stagingIsEmpty = () => fs.readdirSync(path.join(dataDir, 'blobs', 'tmp')).length === 0;
  const missingId = '00000000-0000-4000-8000-000000000000';

  before(async () => {
    dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-connector-storage-')));
    const allowed = path.join(dataDir, 'allowed');
    docs = path.join(allowed, 'docs');
    outside = path.join(dataDir, 'outside');
    fs.mkdirSync(docs, { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(docs, 'existing.txt'), noteText('what was there before'));
    fs.symlinkSync(outside, path.join(docs, 'linked'));
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
          description: 'standard + test connectors',
          plugins: (context) =>
            standardPluginsWithLicense(context, { plugin: license }, [
              { plugin: connectorTemplate },
              { plugin: readOnlyConnector },
            ]),
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
    await call('POST', '/api/auth/users', { username: 'eve', password: 'eve-password-1', role: 'editor' });
    editor = await login('eve', 'eve-password-1');
    await call('POST', '/api/auth/users', { username: 'vic', password: 'vic-password-1' });
    viewer = await login('vic', 'vic-password-1');
    const created = await call('POST', '/api/connectors', { name: 'Docs', type: 'filesystem', config: { path: docs } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    connectorId = created.body.id;
    expect(await scan()).to.deep.include({ upserted: 1 });
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('viewers get 403 before any id is looked at', async () => {
    const unknown = await upload([{ name: 'v.txt', content: 'v' }], {
      query: `connector_id=${missingId}`,
      token: viewer,
    });
    expect([unknown.status, unknown.body.code]).to.deep.equal([403, 'forbidden']);
    expect(
      (
        await call(
          'POST',
          `/api/docs/move?connector_id=${missingId}`,
          { document_id: missingId, target_path: 'x.txt' },
          viewer,
        )
      ).status,
    ).to.equal(403);
    expect(
      (await call('DELETE', `/api/docs/${missingId}?connector_id=${missingId}`, undefined, viewer)).status,
    ).to.equal(403);
    expect(entriesBelow(docs)).to.deep.equal(['existing.txt', 'linked']);
  });

  it('names an unknown connector 404, and an integration or a read-only connector 422, storing nothing', async () => {
    const integration = (
      await call('POST', '/api/integrations', {
        name: 'Feed',
        type: 'json-feed',
        config: { path: path.join(dataDir, 'feed.jsonl') },
      })
    ).body;
    const readOnly = (await call('POST', '/api/connectors', { name: 'Read-only', type: 'read-only', config: {} })).body;
    const before = (await documents()).length;
    const unknown = await upload([{ name: 'u.txt', content: noteText('nothing') }], {
      query: `connector_id=${missingId}`,
    });
    expect([unknown.status, unknown.body.code]).to.deep.equal([404, 'not_found']);
    const unknownField = await upload([{ name: 'u.txt', content: noteText('nothing') }], {
      fields: [['connector_id', missingId]],
    });
    expect([unknownField.status, unknownField.body.code]).to.deep.equal([404, 'not_found']);
    for (const [what, id] of [
      ['an integration', integration.id],
      ['a read-only connector', readOnly.id],
    ]) {
      const res = await upload([{ name: 'u.txt', content: noteText('nothing') }], { query: `connector_id=${id}` });
      expect([res.status, res.body.code], what).to.deep.equal([422, 'validation_failed']);
      expect(res.body.errors[0].field, what).to.equal('query.connector_id');
      const field = await upload([{ name: 'u.txt', content: noteText('nothing') }], { fields: [['connector_id', id]] });
      expect([field.status, field.body.errors?.[0]?.field], `${what} as a form field`).to.deep.equal([
        422,
        'body.connector_id',
      ]);
    }
    const late = await upload([{ name: 'u.txt', content: noteText('nothing') }], {
      fieldsAfter: [['connector_id', connectorId]],
    });
    expect([late.status, late.body.errors?.[0]?.field], 'connector_id after the files').to.deep.equal([
      422,
      'body.connector_id',
    ]);
    const deleteOther = await call('DELETE', `/api/docs/${missingId}?connector_id=${integration.id}`);
    expect([deleteOther.status, deleteOther.body.errors?.[0]?.field]).to.deep.equal([422, 'query.connector_id']);
    expect((await call('DELETE', `/api/docs/${missingId}?connector_id=${missingId}`)).status).to.equal(404);
    expect((await documents()).length).to.equal(before);
    expect(entriesBelow(docs)).to.deep.equal(['existing.txt', 'linked']);
    expect(stagingIsEmpty()).to.equal(true);
    await call('DELETE', `/api/integrations/${integration.id}`);
    await call('DELETE', `/api/connectors/${readOnly.id}`);
  });

  it("an upload with connector_id lands in the directory, is indexed as the connector's document, and the next scan changes nothing", async () => {
    const res = await upload(
      [
        { name: 'notes.txt', content: noteText('quarterly figures') },
        { name: 'second.txt', content: noteText('a second file') },
      ],
      { query: `connector_id=${connectorId}&directory=inbox/2026`, token: editor },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(
      res.body.documents.map((d: Json) => [d.path, d.filename, d.source_type, d.source_id, d.duplicate]),
    ).to.deep.equal([
      ['inbox/2026/notes.txt', 'notes.txt', 'connector', connectorId, false],
      ['inbox/2026/second.txt', 'second.txt', 'connector', connectorId, false],
    ]);
    expect(fs.readFileSync(path.join(docs, 'inbox/2026/notes.txt'), 'utf8')).to.equal(noteText('quarterly figures'));
    // As a form field too, sent before the file: the file goes to the connector's root.
    const viaField = await upload([{ name: 'root-note.txt', content: noteText('the root') }], {
      fields: [['connector_id', connectorId]],
    });
    expect(viaField.body.documents?.[0]?.path, JSON.stringify(viaField.body)).to.equal('root-note.txt');
    expect(fs.existsSync(path.join(docs, 'root-note.txt'))).to.equal(true);

    const indexed = await waitIndexed();
    const notes = indexed.find((d) => d.path === 'inbox/2026/notes.txt') as Json;
    expect(notes).to.include({ status: 'indexed', id: res.body.documents[0].id });
    const chunksBefore = await chunkIds(notes.id);
    expect(chunksBefore).to.not.be.empty;
    const search = await call('POST', '/api/search', { query: 'quarterly figures' });
    expect(search.body.items.map((item: Json) => item.path)).to.include('inbox/2026/notes.txt');

    // The scan reads the three new files once (its state did not know them), finds the bytes the
    // documents already hold, and leaves them be.
    const result = await scan();
    expect(result).to.deep.include({ upserted: 0, unchanged: 3, moved: 0, deleted: 0, skipped: 0 });
    const after = await documents();
    expect(after.map((d) => [d.id, d.path, d.status]).sort()).to.deep.equal(
      indexed.map((d) => [d.id, d.path, d.status]).sort(),
    );
    expect(await chunkIds(notes.id)).to.deep.equal(chunksBefore);
    expect(stagingIsEmpty()).to.equal(true);
  });

  it('refuses an existing file or document at the target with 409, replacing nothing', async () => {
    const before = (await documents()).length;
    const existing = await upload([{ name: 'existing.txt', content: noteText('a replacement') }], {
      query: `connector_id=${connectorId}`,
    });
    expect([existing.status, existing.body.code]).to.deep.equal([409, 'conflict']);
    expect(fs.readFileSync(path.join(docs, 'existing.txt'), 'utf8')).to.equal(noteText('what was there before'));
    const twice = await upload(
      [
        { name: 'twin.txt', content: noteText('one') },
        { name: 'twin.txt', content: noteText('two') },
      ],
      { query: `connector_id=${connectorId}` },
    );
    expect([twice.status, twice.body.code]).to.deep.equal([409, 'conflict']);
    expect(fs.existsSync(path.join(docs, 'twin.txt'))).to.equal(false);
    expect((await documents()).length).to.equal(before);
  });

  it('refuses traversal, absolute paths and symlinked directories with nothing written', async () => {
    const before = { docs: entriesBelow(docs), count: (await documents()).length };
    const file = [{ name: 'escape.txt', content: noteText('an escape') }];
    for (const directory of ['../x', '/tmp', 'inbox/../..', 'a//b']) {
      const res = await upload(file, {
        query: `connector_id=${connectorId}&directory=${encodeURIComponent(directory)}`,
      });
      expect([res.status, res.body.code], `query directory ${directory}`).to.deep.equal([422, 'validation_failed']);
      const field = await upload(file, {
        fields: [
          ['connector_id', connectorId],
          ['directory', directory],
        ],
      });
      expect([field.status, field.body.errors?.[0]?.field], `form directory ${directory}`).to.deep.equal([
        422,
        'body.directory',
      ]);
    }
    for (const directory of ['linked', 'linked/deeper']) {
      const res = await upload(file, { query: `connector_id=${connectorId}&directory=${directory}` });
      expect([res.status, res.body.code], `directory ${directory}`).to.deep.equal([422, 'validation_failed']);
      expect(res.body.detail).to.contain('symbolic link');
    }
    const notes = (await documents()).find((d) => d.path === 'inbox/2026/notes.txt') as Json;
    for (const target of ['../x.txt', '/etc/x.txt', 'linked/x.txt', 'inbox/./x.txt', '.hidden.txt']) {
      const res = await call('POST', '/api/docs/move', { document_id: notes.id, target_path: target });
      expect([res.status, res.body.code], `move to ${target}`).to.deep.equal([422, 'validation_failed']);
      expect(res.body.errors?.[0]?.field, `move to ${target}`).to.match(/target_path$/);
    }
    expect(entriesBelow(outside)).to.deep.equal([]);
    expect(entriesBelow(docs)).to.deep.equal(before.docs);
    expect((await documents()).length).to.equal(before.count);
    expect(stagingIsEmpty()).to.equal(true);
  });

  it("an upload over the plan's limits or of a refused type leaves nothing behind", async () => {
    const before = { docs: entriesBelow(docs), count: (await documents()).length };
    limits = { ...freeLimits, fileSizeBytes: 1024 * 1024 };
    try {
      const big = await upload(
        [
          { name: 'small.txt', content: noteText('fits') },
          { name: 'big.txt', content: Buffer.alloc(3 * 1024 * 1024, 'x') },
        ],
        { query: `connector_id=${connectorId}` },
      );
      expect([big.status, big.body.code]).to.deep.equal([413, 'file_too_large']);
      limits = { ...freeLimits, documents: before.count };
      const count = await upload([{ name: 'one-more.txt', content: noteText('one more') }], {
        query: `connector_id=${connectorId}`,
      });
      expect([count.status, count.body.code]).to.deep.equal([403, 'plan_limit']);
      limits = { ...freeLimits, storageBytes: 10 };
      const storage = await upload([{ name: 'storage.txt', content: noteText('too much') }], {
        query: `connector_id=${connectorId}`,
      });
      expect([storage.status, storage.body.code]).to.deep.equal([403, 'plan_limit']);
    } finally {
      limits = freeLimits;
    }
    const gated = await upload([{ name: 'table.csv', content: 'a,b\n1,2' }], { query: `connector_id=${connectorId}` });
    expect([gated.status, gated.body.code]).to.deep.equal([403, 'plan_required']);
    const unknown = await upload([{ name: 'image.bmp', content: 'BM....' }], { query: `connector_id=${connectorId}` });
    expect([unknown.status, unknown.body.code]).to.deep.equal([415, 'unsupported_media_type']);
    expect(entriesBelow(docs)).to.deep.equal(before.docs);
    expect((await documents()).length).to.equal(before.count);
    expect(stagingIsEmpty()).to.equal(true);
  });

  it("a move renames the file, keeps the document's id and chunks, and the following scan changes nothing", async () => {
    const notes = (await documents()).find((d) => d.path === 'inbox/2026/notes.txt') as Json;
    const chunksBefore = await chunkIds(notes.id);
    const onExisting = await call('POST', '/api/docs/move', { document_id: notes.id, target_path: 'existing.txt' });
    expect([onExisting.status, onExisting.body.code]).to.deep.equal([409, 'conflict']);

    // Connector-scoped: the document belongs to the connector, so target_path is inside it.
    const moved = await call(
      'POST',
      '/api/docs/move',
      { document_id: notes.id, target_path: 'archive/2026/q1-notes.txt' },
      editor,
    );
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body).to.include({
      id: notes.id,
      path: 'archive/2026/q1-notes.txt',
      filename: 'q1-notes.txt',
      status: 'indexed',
      source_id: connectorId,
    });
    expect(fs.existsSync(path.join(docs, 'inbox/2026/notes.txt'))).to.equal(false);
    expect(fs.readFileSync(path.join(docs, 'archive/2026/q1-notes.txt'), 'utf8')).to.equal(
      noteText('quarterly figures'),
    );
    expect(await chunkIds(notes.id)).to.deep.equal(chunksBefore);

    // The same with connector_id named, in the query this time.
    const back = await call('POST', `/api/docs/move?connector_id=${connectorId}`, {
      document_id: notes.id,
      target_path: 'archive/q1.txt',
    });
    expect([back.status, back.body.path]).to.deep.equal([200, 'archive/q1.txt']);

    const before = await documents();
    const result = await scan();
    expect(result).to.deep.include({ upserted: 0, unchanged: 1, moved: 0, deleted: 0, skipped: 0 });
    const after = await documents();
    expect(after.map((d) => [d.id, d.path]).sort()).to.deep.equal(before.map((d) => [d.id, d.path]).sort());
    expect(await chunkIds(notes.id)).to.deep.equal(chunksBefore);
    const search = await call('POST', '/api/search', { query: 'quarterly figures' });
    expect(search.body.items.map((item: Json) => item.path)).to.include('archive/q1.txt');
  });

  it('moving an upload with connector_id writes its bytes into the connector and keeps its chunks', async () => {
    const [plain] = (await upload([{ name: 'plain.txt', content: noteText('an ordinary upload') }])).body.documents;
    await waitIndexed();
    const chunksBefore = await chunkIds(plain.id);
    expect(chunksBefore).to.not.be.empty;
    const moved = await call('POST', '/api/docs/move', {
      document_id: plain.id,
      target_path: 'from-uploads/plain.txt',
      connector_id: connectorId,
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body).to.include({
      id: plain.id,
      source_type: 'connector',
      source_id: connectorId,
      path: 'from-uploads/plain.txt',
      status: 'indexed',
    });
    expect(fs.readFileSync(path.join(docs, 'from-uploads/plain.txt'), 'utf8')).to.equal(noteText('an ordinary upload'));
    expect(await chunkIds(plain.id)).to.deep.equal(chunksBefore);
    expect(await scan()).to.deep.include({ upserted: 0, unchanged: 1, moved: 0, deleted: 0 });
    expect(await chunkIds(plain.id)).to.deep.equal(chunksBefore);
  });

  it('a scan that takes an uploaded file for a moved one (same bytes, the other file gone) keeps the upload', async () => {
    fs.writeFileSync(path.join(docs, 'twin-original.txt'), noteText('twins'));
    expect(await scan()).to.deep.include({ upserted: 1 });
    const [copy] = (
      await upload([{ name: 'twin-copy.txt', content: noteText('twins') }], { query: `connector_id=${connectorId}` })
    ).body.documents;
    await waitIndexed();
    const chunksBefore = await chunkIds(copy.id);
    // Deleted outside DocQA: the scan sees a new file with the bytes of a vanished one, a move.
    fs.rmSync(path.join(docs, 'twin-original.txt'));
    expect(await scan()).to.deep.include({ upserted: 0, unchanged: 1, moved: 0, deleted: 1 });
    const twins = (await documents()).filter((d) => d.path.startsWith('twin-'));
    expect(twins.map((d) => [d.id, d.path])).to.deep.equal([[copy.id, 'twin-copy.txt']]);
    expect(await chunkIds(copy.id)).to.deep.equal(chunksBefore);
  });

  it('a delete with connector_id removes the file too; without it the file stays', async () => {
    const all = await documents();
    const moved = all.find((d) => d.path === 'from-uploads/plain.txt') as Json;
    const [upload1] = (await upload([{ name: 'elsewhere.txt', content: noteText('not in the connector') }])).body
      .documents;
    const wrongSource = await call('DELETE', `/api/docs/${upload1.id}?connector_id=${connectorId}`);
    expect([wrongSource.status, wrongSource.body.errors?.[0]?.field]).to.deep.equal([422, 'query.connector_id']);

    const deletion = await call('DELETE', `/api/docs/${moved.id}?connector_id=${connectorId}`, undefined, editor);
    expect(deletion.status, JSON.stringify(deletion.body)).to.equal(204);
    expect(fs.existsSync(path.join(docs, 'from-uploads/plain.txt'))).to.equal(false);
    expect((await documents()).map((d) => d.id)).to.not.include(moved.id);

    const root = all.find((d) => d.path === 'root-note.txt') as Json;
    expect((await call('DELETE', `/api/docs/${root.id}`)).status).to.equal(204);
    expect(
      fs.existsSync(path.join(docs, 'root-note.txt')),
      'the file of a document deleted without connector_id',
    ).to.equal(true);

    const result = await scan();
    expect(result).to.deep.include({ upserted: 0, unchanged: 0, deleted: 0 });
    expect((await documents()).map((d) => d.path)).to.not.include('from-uploads/plain.txt');
  });
});
