import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ApiClient, until, type Json } from './support/api.js';
import { baseEnv, serveCli, type ServingCli } from './support/cli.js';
import { databaseEnv, inspectDatabase } from './support/database.js';

/**
 * The database of the release before the domain modules (commit f8291cb, where identity, documents,
 * search, chat and models kept their migrations in packages/server): a second user, two indexed
 * documents and a conversation, dumped as test/upgrade/make-release-fixture.mjs says. Moving an
 * area into a module moves its migrations but keeps their names, so the migrator must find them
 * applied, and the data must serve as before.
 */
const releaseDump = fs.readFileSync(path.join(import.meta.dirname, 'upgrade', 'release-f8291cb.sql'), 'utf8');
const conversationId = '739b866b-89f8-41ff-8bc9-e7f0f4e882dd';

describe('upgrade: the current code starts on a database the previous release created', function () {
  this.timeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-upgrade-'));
  let database: Awaited<ReturnType<typeof databaseEnv>>;
  let server: ServingCli | undefined;

  before(async () => {
    database = await databaseEnv();
    const dataDir = path.join(dir, 'data');
    await inspectDatabase({ url: database.url, dataDir }, async ({ pool }) => {
      await pool.query('create extension if not exists vector');
      await pool.query(releaseDump);
    });
    server = await serveCli({
      cwd: dir,
      timeoutMs: 180_000,
      env: baseEnv({
        JWT_SECRET_KEY: 'test-jwt-secret-key-0123456789abcdef0123456789',
        MFA_ENCRYPTION_KEY: 'test-mfa-encryption-key-0123456789abcdef012345',
        DOCQA_DATA_DIR: dataDir,
        PORT: '0',
        BACKEND_WORKERS: '1',
        SHUTDOWN_TIMEOUT_SECONDS: '5',
        RAG_MIN_CHUNK_LENGTH: '1',
        ...database.env,
      }),
    });
  });
  after(async () => {
    if (server && server.child.exitCode === null) await server.stop('SIGKILL');
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("signs in the release's users and serves their documents, search and conversations", async () => {
    const admin = await ApiClient.login(server!.url, 'admin', 'admin-password-1');
    const documents = (await admin.call('GET', '/api/docs?limit=50')).body.items as Json[];
    expect(documents.map((document) => [document.filename, document.status]).sort()).to.deep.equal([
      ['travel-policy.txt', 'indexed'],
      ['zorblax-manual.txt', 'indexed'],
    ]);
    const vera = await ApiClient.login(server!.url, 'vera', 'vera-password-1');
    const search = await vera.call('POST', '/api/search', { query: 'cooling period Zorblax', top_k: 3 });
    expect(search.status).to.equal(200);
    expect((search.body.items as Json[])[0]?.title).to.equal('zorblax-manual.txt');
    const conversations = (await vera.call('GET', '/api/conversations')).body.items as Json[];
    expect(conversations.map((conversation) => conversation.id)).to.deep.equal([conversationId]);
    const followUp = await vera.call('POST', '/api/chat', {
      query: 'And how long do trains take?',
      conversation_id: conversationId,
    });
    expect(followUp.status).to.equal(200);
    expect((await vera.call('GET', `/api/conversations/${conversationId}`)).body.turns).to.have.length(2);
  });

  it('indexes a new upload next to the old documents, and search finds it', async () => {
    const admin = await ApiClient.login(server!.url, 'admin', 'admin-password-1');
    const [created] = await admin.upload([
      { name: 'report.txt', text: 'Quarterly report\n\nRevenue grew by twelve percent.' },
    ]);
    await until('the new upload to be indexed', async () => {
      const document = (await admin.call('GET', `/api/docs/${created!.id}`)).body;
      return document.status === 'indexed' ? document : null;
    });
    const found = await admin.call('POST', '/api/search', { query: 'revenue grew', top_k: 1 });
    expect((found.body.items as Json[]).map((item) => item.document_id)).to.deep.equal([created!.id]);
  });

  it('kept every migration the release applied as it was, and ran none twice', async () => {
    expect(await server!.stop()).to.equal(0);
    const applied = await inspectDatabase({ url: database.url, dataDir: path.join(dir, 'data') }, async ({ pool }) => {
      const { rows } = await pool.query<{ id: number; name: string }>(
        'select id, name from docqa_migrations order by id',
      );
      return rows;
    });
    const released = [...releaseDump.matchAll(/INSERT INTO public\.docqa_migrations VALUES \((\d+), '([^']+)'/g)].map(
      (match) => ({ id: Number(match[1]), name: match[2] }),
    );
    expect(released).to.have.length(22);
    expect(applied.slice(0, released.length)).to.deep.equal(released);
    expect(new Set(applied.map((row) => row.name)).size).to.equal(applied.length);
  });
});
