import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { definePreset, type AuditEvent } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import connectorTemplate from '@docqa/example-connector-template';
import { createLicenseEd25519Plugin, generateLicenseKeyPair, signLicense } from '@docqa/plugin-license-ed25519';
import { startServer, type RunningServer } from '../server.js';
import { licenseRoutes } from './license.js';
import { standardPluginsWithLicense } from '../testing/standard-with-license.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const day = 24 * 60 * 60;
const mib = 1024 * 1024;
const vendor = generateLicenseKeyPair();
const stranger = generateLicenseKeyPair();

// The license gate's clock: the test moves it forward to watch a license lapse.
let clock = Date.now();
const licensePlugin = createLicenseEd25519Plugin({ now: () => clock });

let serial = 0;
function key(
  plan: 'PRO' | 'ENTERPRISE',
  options: { expDays?: number; limits?: Json; privateKeyPem?: string } = {},
): { key: string; id: string } {
  const now = Math.floor(clock / 1000);
  const id = `lic-http-${++serial}`;
  const exp = now + (options.expDays ?? 365) * day;
  // Issued a minute ago, or, for a key that has expired already, a month before it expired.
  const iat = Math.min(now - 60, exp - 30 * day);
  return {
    id,
    key: signLicense(options.privateKeyPem ?? vendor.privateKeyPem, {
      plan,
      licensee: 'Acme Corp',
      id,
      iat,
      exp,
      ...(options.limits ? { limits: options.limits } : {}),
    }),
  };
}

describe('licenses through HTTP (GET/POST /api/license, plan gates and limits)', function () {
  let server: RunningServer;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTemporaryDatabase>> | null = null;
  let admin: string;
  let viewer: string;
  const audit: AuditEvent[] = [];

  const start = async () => {
    server = await startServer({
      env: {
        ...testSecrets,
        DOCQA_DATA_DIR: dataDir,
        DOCQA_SECRETS_DIR: dataDir,
        LOG_LEVEL: 'ERROR',
        DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
        RAG_MIN_CHUNK_LENGTH: '1',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      // On disk, so a restart finds the license where the last server left it.
      inMemoryDatabase: false,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'standard with the license plugin on a test vendor key',
          plugins: (context) =>
            standardPluginsWithLicense(
              context,
              { plugin: licensePlugin, options: { publicKey: vendor.publicKeyPem } },
              [{ plugin: connectorTemplate }],
            ),
        }),
      },
      extraRoutes: licenseRoutes,
      audit: { record: async (event) => void audit.push(event) },
      port: 0,
      host: '127.0.0.1',
    });
    admin = await login('admin', 'admin-password-1');
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
  const upload = async (files: Record<string, string>) => {
    const form = new FormData();
    for (const [name, text] of Object.entries(files)) form.append('file', new Blob([Buffer.from(text)]), name);
    const res = await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const apply = (licenseKey: string, token = admin) => call('POST', '/api/license', { license_key: licenseKey }, token);
  const gates = async () => ({
    schedules: (await call('GET', '/api/schedules')).status,
    groups: (await call('POST', '/api/groups', { name: `team-${++serial}` })).status,
  });
  const waitFor = async (what: string, done: () => Promise<boolean>) => {
    const deadline = Date.now() + 60_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  before(async function () {
    this.timeout(120_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-license-http-'));
    if (process.env.TEST_DATABASE_URL) database = await createTemporaryDatabase(process.env.TEST_DATABASE_URL);
    await start();
    await call('POST', '/api/auth/users', { username: 'vic', password: 'vic-password-1' });
    viewer = await login('vic', 'vic-password-1');
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on FREE: PRO and ENTERPRISE gates are closed, CSV uploads refused; anyone signed in reads the license', async () => {
    const license = await call('GET', '/api/license', undefined, viewer);
    expect(license.status).to.equal(200);
    expect(license.body).to.deep.equal({
      plan: 'FREE',
      licensee: null,
      license_id: null,
      expires_at: null,
      lapsed: false,
      limits: { documents: 100, file_size_bytes: 10 * mib, storage_bytes: 1024 * mib },
      usage: { documents: 0, storage_bytes: 0 },
    });
    expect(await gates()).to.deep.equal({ schedules: 403, groups: 403 });
    const csv = await upload({ 'table.csv': 'a,b\n1,2\n' });
    expect([csv.status, csv.body.code, csv.body.required_plan]).to.deep.equal([403, 'plan_required', 'PRO']);
    expect((await apply(key('PRO').key, viewer)).status, 'only admins apply').to.equal(403);
    expect((await fetch(`${server.url}/api/license`)).status, 'not without a token').to.equal(401);
  });

  it('a signed PRO key opens the PRO gates, not the ENTERPRISE ones, and is audited without the key', async () => {
    const pro = key('PRO');
    const applied = await apply(pro.key);
    expect(applied.status).to.equal(200);
    expect(applied.body).to.deep.include({
      plan: 'PRO',
      licensee: 'Acme Corp',
      license_id: pro.id,
      lapsed: false,
      limits: { documents: 10_000, file_size_bytes: 100 * mib, storage_bytes: 100 * 1024 * mib },
    });
    expect(Date.parse(applied.body.expires_at)).to.be.greaterThan(Date.now());
    expect((await call('GET', '/api/license', undefined, viewer)).body).to.deep.equal(applied.body);
    expect(await gates()).to.deep.equal({ schedules: 200, groups: 403 });
    expect((await upload({ 'table.csv': 'a,b\n1,2\n' })).status).to.equal(202);
    const event = audit.at(-1) as AuditEvent;
    expect(event).to.deep.include({
      type: 'license.apply',
      outcome: 'success',
      target: pro.id,
      details: { plan: 'PRO', licensee: 'Acme Corp', license_id: pro.id },
    });
    expect(event.actor?.username).to.equal('admin');
    expect(JSON.stringify(audit)).not.to.include(pro.key.split('.')[2]);
  });

  it("a signed ENTERPRISE key opens the ENTERPRISE gates; its limits override the plan's", async () => {
    const enterprise = key('ENTERPRISE', { limits: { documents: 500 } });
    const applied = await apply(enterprise.key);
    expect(applied.body).to.deep.include({
      plan: 'ENTERPRISE',
      license_id: enterprise.id,
      limits: { documents: 500, file_size_bytes: null, storage_bytes: null },
    });
    expect(applied.body.usage.documents).to.equal(1);
    expect(await gates()).to.deep.equal({ schedules: 200, groups: 201 });
  });

  it('refuses a key signed by another key, or edited in one character, with 422; the previous plan stays', async () => {
    const before = (await call('GET', '/api/license')).body;
    const forged = key('ENTERPRISE', { privateKeyPem: stranger.privateKeyPem, limits: { documents: 1_000_000 } });
    const refused = await apply(forged.key);
    expect([refused.status, refused.body.code]).to.deep.equal([422, 'validation_failed']);
    expect(refused.body.detail).to.include('signature does not verify');
    expect(refused.body.errors).to.deep.equal([{ field: 'body.license_key', message: refused.body.detail }]);
    const failure = audit.at(-1) as AuditEvent;
    expect(failure).to.deep.include({
      type: 'license.apply',
      outcome: 'failure',
      details: { plan: 'ENTERPRISE', licensee: 'Acme Corp', license_id: forged.id, reason: refused.body.detail },
    });

    const genuine = key('PRO').key;
    const middle = Math.floor(genuine.length / 2);
    const edited = genuine.slice(0, middle) + (genuine[middle] === 'x' ? 'y' : 'x') + genuine.slice(middle + 1);
    expect((await apply(edited)).status).to.equal(422);
    expect(
      (await apply(`${genuine.slice(0, -1)}${genuine.at(-1) === 'A' ? 'B' : 'A'}`)).status,
      'last character edited',
    ).to.equal(422);
    expect((await apply('')).status, 'empty').to.equal(422);
    expect((await call('GET', '/api/license')).body).to.deep.equal(before);
    expect(await gates()).to.deep.equal({ schedules: 200, groups: 201 });
  });

  it("enforces the license's document limit during syncs: over the limit is skipped and reported, the sync succeeds", async () => {
    const limited = key('PRO', { limits: { documents: 3 } });
    expect((await apply(limited.key)).body.limits.documents).to.equal(3);
    const feed = path.join(dataDir, 'feed.jsonl');
    fs.writeFileSync(
      feed,
      ['a', 'b', 'c']
        .map((id) =>
          JSON.stringify({ id, title: id, body: `Record ${id} body text.`, updated_at: '2026-01-01T00:00:00Z' }),
        )
        .join('\n'),
    );
    const integration = (
      await call('POST', '/api/integrations', { name: 'Feed', type: 'json-feed', config: { path: feed } })
    ).body;
    const jobId = (await call('POST', `/api/integrations/${integration.id}/sync`)).body.job_id as string;
    let job: Json = {};
    await waitFor('the sync', async () =>
      ['succeeded', 'failed'].includes((job = (await call('GET', `/api/jobs/${jobId}`)).body).status),
    );
    // The CSV is stored already, so two of the three records fit under the limit of 3.
    expect(job.status).to.equal('succeeded');
    expect(job.result).to.deep.include({ upserted: 2, skipped: 1 });
    expect(job.result.skipped_files).to.have.length(1);
    expect(job.result.skipped_files[0]).to.include({ code: 'plan_limit' });
    expect((await call('GET', '/api/license')).body.usage.documents).to.equal(3);
    expect((await call('DELETE', `/api/integrations/${integration.id}`)).status).to.equal(204);
  });

  it('an expired license falls back to FREE: documents stay searchable, uploads over the FREE limit are refused', async function () {
    this.timeout(180_000);
    const expiring = key('PRO', { expDays: 2 });
    expect((await apply(expiring.key)).body.plan).to.equal('PRO');
    // 101 documents besides the CSV: past FREE's 100, allowed on PRO.
    for (let batch = 0; batch < 6; batch++) {
      const files: Record<string, string> = {};
      for (let i = batch * 20; i < Math.min(101, (batch + 1) * 20); i++)
        files[`note-${i}.txt`] = `Note ${i} mentions the zephyrine budget, item ${i}.`;
      if (Object.keys(files).length > 0) expect((await upload(files)).status).to.equal(202);
    }
    const statuses = async () =>
      Object.fromEntries(
        (
          await server.kernel.db.query<{ status: string; n: string }>(
            'select status, count(*) as n from document group by status',
          )
        ).rows.map((row) => [row.status, Number(row.n)]),
      );
    await waitFor('indexing', async () => {
      const counts = await statuses();
      return !counts.pending && !counts.indexing;
    });
    expect(await statuses()).to.deep.equal({ indexed: 102 });

    clock += 3 * day * 1000;
    const lapsed = (await call('GET', '/api/license', undefined, viewer)).body;
    expect(lapsed).to.deep.include({
      plan: 'FREE',
      lapsed: true,
      licensee: 'Acme Corp',
      license_id: expiring.id,
      limits: { documents: 100, file_size_bytes: 10 * mib, storage_bytes: 1024 * mib },
    });
    expect(lapsed.usage.documents).to.equal(102);
    expect(await gates()).to.deep.equal({ schedules: 403, groups: 403 });
    const search = await call('POST', '/api/search', { query: 'zephyrine budget', top_k: 5 }, viewer);
    expect(search.status).to.equal(200);
    expect(search.body.items).to.have.length(5);
    const refused = await upload({ 'one-more.txt': 'One more note about the zephyrine budget.' });
    expect([refused.status, refused.body.code, refused.body.limit]).to.deep.equal([403, 'plan_limit', 100]);
    // An expired key is refused outright; a renewed one restores the plan.
    const stale = await apply(key('PRO', { expDays: -1 }).key);
    expect(stale.status).to.equal(422);
    expect(stale.body.detail).to.include('expired on');
    const renewed = key('PRO');
    expect((await apply(renewed.key)).body).to.deep.include({ plan: 'PRO', lapsed: false, license_id: renewed.id });
    expect((await upload({ 'one-more.txt': 'One more note about the zephyrine budget.' })).status).to.equal(202);
  });

  it('keeps the applied license across a restart on the same data', async function () {
    this.timeout(120_000);
    const before = (await call('GET', '/api/license')).body;
    expect(before.plan).to.equal('PRO');
    await server.stop();
    await start();
    expect((await call('GET', '/api/license')).body).to.deep.equal(before);
    expect((await gates()).schedules).to.equal(200);
  });
});
