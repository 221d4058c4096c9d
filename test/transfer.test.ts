import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import sharp from 'sharp';
import { writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import { generateLicenseKeyPair, signLicense } from '@docqa/plugin-license-ed25519';
import { totpCode } from '@docqa/core/crypto';
import { syncQueue } from '@docqa/core/sync';
import { ApiClient, until, type Json } from './support/api.js';
import { baseEnv, runCli, serveCli, type ServingCli } from './support/cli.js';
import { databaseEnv, inspectDatabase } from './support/database.js';

const adminPassword = 'admin-password-1';
const alicePassword = 'alice-password-1';
const texts: Record<string, string> = {
  'photosynthesis.txt':
    'Photosynthesis turns light energy into chemical energy. Chlorophyll in the leaf absorbs red and blue light.',
  'tides.txt': 'Ocean tides rise and fall twice a day, pulled by the gravity of the moon and, less, of the sun.',
  'volcano.md': '# Volcanoes\n\nMagma rises through the crust and erupts as lava, ash and gas from a volcano.',
};
const connectorFiles: Record<string, string> = {
  'handbook/leave.txt':
    'Department: HR\nEmployees take twenty days of paid leave a year; unused leave carries over once.',
  'handbook/travel.txt': 'Department: Finance\nTravel expenses are refunded within thirty days of the receipt.',
};

/** Every table's row count, read from the database itself (the embedded one once its server stopped). */
async function tableCounts(target: { url: string | null; dataDir: string }): Promise<Record<string, number>> {
  return inspectDatabase(target, async ({ pool }) => {
    const { rows } = await pool.query<{ name: string }>(
      `select relname as name from pg_class where relnamespace = (select relnamespace from pg_class where oid = to_regclass('docqa_migrations'))
       and relkind in ('r', 'p') and relname <> 'docqa_migrations' order by relname`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of rows)
      counts[name] = Number((await pool.query<{ n: string }>(`select count(*) as n from "${name}"`)).rows[0]?.n);
    return counts;
  });
}

async function accessToken(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await res.json()) as Json).access_token as string;
}

/**
 * The counts of the tables the source had. A migration newer than the source's schema may add a
 * table on the target (docqa import applies it after loading); its rows are its own business.
 */
let sourceTableNames: string[] = [];
const sourceTables = (counts: Record<string, number>) =>
  Object.fromEntries(sourceTableNames.map((name) => [name, counts[name]]));

/** An ENTERPRISE license of our own signing (audit log, groups, schedules), as an operator sets it. */
function enterpriseLicense(): Record<string, string> {
  const keys = generateLicenseKeyPair();
  const now = Math.floor(Date.now() / 1000);
  return {
    LICENSE_KEY: signLicense(keys.privateKeyPem, {
      plan: 'ENTERPRISE',
      licensee: 'transfer test',
      id: 'transfer',
      iat: now,
      exp: now + 24 * 3600,
    }),
    LICENSE_PUBLIC_KEY: keys.publicKeyPem,
  };
}

describe('moving an installation from the embedded database to another database: docqa export and import (end to end)', function () {
  this.timeout(900_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-transfer-'));
  const docs = path.join(dir, 'docs');
  const archive = path.join(dir, 'installation.docqa');
  const started: ServingCli[] = [];
  let target: Awaited<ReturnType<typeof databaseEnv>>;
  let sourceEnv: Record<string, string>;
  let targetEnv: Record<string, string>;
  const source = { url: null, dataDir: path.join(dir, 'source-data') };
  const targetDir = path.join(dir, 'target-data');
  // What the source showed before it stopped, to compare the target with.
  const seen: {
    documents: Json[];
    searchTop: string[];
    conversationId: string;
    conversationTurns: number;
    auditChecked: number;
    schedules: Json[];
    rules: Json[];
    groups: Json[];
    branding: Json;
    logo: Buffer;
    counts: Record<string, number>;
    aliceMfaCounter: number;
  } = {} as never;

  const start = async (env: Record<string, string>) => {
    const server = await serveCli({ cwd: dir, env, timeoutMs: 180_000 });
    started.push(server);
    return server;
  };

  before(async () => {
    const model = await writeTinyBertEmbeddingModel(path.join(dir, 'tiny-bert.gguf'), { dimensions: 32 });
    fs.writeFileSync(
      path.join(dir, 'docqa.config.json'),
      JSON.stringify({ configure: { 'embedder-llamacpp': { threads: 1 } } }),
    );
    for (const [name, text] of Object.entries(connectorFiles)) {
      fs.mkdirSync(path.dirname(path.join(docs, name)), { recursive: true });
      fs.writeFileSync(path.join(docs, name), text);
    }
    target = await databaseEnv();
    // The same secrets on both sides, as the move keeps .env: TOTP secrets and sealed connector
    // secrets open only with the MFA_ENCRYPTION_KEY they were sealed with.
    const common = {
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DEFAULT_ADMIN_PASSWORD: adminPassword,
      PORT: '0',
      BACKEND_WORKERS: '1',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      EMBEDDING_MODEL_PATH: model.path,
      CONNECTOR_ALLOWED_PATHS: docs,
      ...enterpriseLicense(),
    };
    sourceEnv = baseEnv({ ...common, DOCQA_DATA_DIR: source.dataDir });
    targetEnv = baseEnv({ ...common, DOCQA_DATA_DIR: targetDir, ...target.env });
  });
  after(async () => {
    for (const server of started)
      if (server.child.exitCode === null && server.child.signalCode === null) await server.stop('SIGKILL');
    await target?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fills the embedded installation with real data through the API, and refuses to export while it runs', async () => {
    const server = await start(sourceEnv);
    const admin = await ApiClient.login(server.url, 'admin', adminPassword);

    const alice = await admin.call('POST', '/api/auth/users', {
      username: 'alice',
      password: alicePassword,
      role: 'editor',
      email: 'alice@example.com',
    });
    expect(alice.status, JSON.stringify(alice.body)).to.equal(201);
    const aliceClient = await ApiClient.login(server.url, 'alice', alicePassword);
    const setup = await aliceClient.call('POST', '/api/auth/mfa/totp/setup');
    const counter = Math.floor(Date.now() / 30_000);
    const enabled = await aliceClient.call('POST', '/api/auth/mfa/totp/enable', {
      code: totpCode(setup.body.secret as string, counter),
    });
    expect(enabled.status, JSON.stringify(enabled.body)).to.equal(200);
    seen.aliceMfaCounter = counter;
    // Kept for the login on the target, which needs the secret to make a code.
    fs.writeFileSync(path.join(dir, 'alice-totp'), setup.body.secret as string);

    const group = await admin.call('POST', '/api/groups', { name: 'Research', description: 'The research team' });
    expect(group.status).to.equal(201);
    expect((await admin.call('PUT', `/api/groups/${group.body.id}/members/${alice.body.id}`)).status).to.be.oneOf([
      200, 204,
    ]);

    const uploaded = await admin.upload(Object.entries(texts).map(([name, text]) => ({ name, text })));
    expect(uploaded).to.have.length(3);
    const connectorId = await admin.createConnector('Handbook', docs);
    const rule = await admin.call('POST', `/api/metadata/${connectorId}/rules`, {
      field_name: 'department',
      pattern: 'Department: (\\w+)',
      scope: 'header',
      level: 'document',
    });
    expect(rule.status, JSON.stringify(rule.body)).to.equal(201);
    const scan = await admin.waitForJob(await admin.scan(connectorId));
    expect(scan.status, JSON.stringify(scan)).to.equal('succeeded');
    const schedule = await admin.call('POST', '/api/schedules', {
      source_type: 'connector',
      source_id: connectorId,
      cron: '15 3 * * *',
      enabled: true,
    });
    expect(schedule.status, JSON.stringify(schedule.body)).to.equal(201);

    const documents = await until('every document indexed', async () => {
      const list = (await admin.call('GET', '/api/docs?limit=100')).body.items as Json[];
      return list.length === 5 && list.every((document) => document.status === 'indexed') ? list : null;
    });
    expect(documents.every((document) => document.chunk_count > 0)).to.equal(true);

    const chat = await aliceClient.call('POST', '/api/chat', { query: 'What do tides depend on?' });
    expect(chat.status, JSON.stringify(chat.body)).to.equal(200);
    await aliceClient.call('POST', '/api/chat', {
      query: 'And twice a day?',
      conversation_id: chat.body.conversation_id,
    });

    expect(
      (
        await admin.call('PUT', '/api/branding', {
          name: 'Acme Answers',
          colors: { primary: '#123456' },
          texts: { footer: 'Acme Inc.' },
        })
      ).status,
    ).to.equal(200);
    const logo = await sharp({ create: { width: 48, height: 48, channels: 4, background: '#123456' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
    const uploadedLogo = await fetch(`${server.url}/api/branding/logo`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${await accessToken(server.url, 'admin', adminPassword)}` },
    });
    expect(uploadedLogo.status, await uploadedLogo.clone().text()).to.be.oneOf([200, 201]);

    // What the target must show the same.
    seen.documents = documents;
    seen.searchTop = (
      (await admin.call('POST', '/api/search', { query: 'light energy in the leaf', top_k: 3 })).body.items as Json[]
    ).map((item) => `${item.document_id} ${item.chunk_id} ${item.score}`);
    expect(seen.searchTop.length).to.be.greaterThan(0);
    seen.conversationId = chat.body.conversation_id;
    seen.conversationTurns = (
      (await aliceClient.call('GET', `/api/conversations/${chat.body.conversation_id}`)).body.turns as Json[]
    ).length;
    expect(seen.conversationTurns).to.equal(2);
    const verified = await admin.call('GET', '/api/audit/verify');
    expect(verified.body.valid, JSON.stringify(verified.body)).to.equal(true);
    expect(verified.body.checked).to.be.greaterThan(0);
    seen.auditChecked = verified.body.checked;
    seen.schedules = (await admin.call('GET', '/api/schedules')).body.items;
    seen.rules = (await admin.call('GET', `/api/metadata/${connectorId}/rules`)).body.items;
    seen.groups = (await admin.call('GET', '/api/groups')).body.items;
    seen.branding = (await admin.call('GET', '/api/branding')).body;
    seen.logo = Buffer.from(await (await fetch(`${server.url}/api/branding/logo`)).arrayBuffer());

    const whileRunning = await runCli(['export', '--out', archive], { cwd: dir, env: sourceEnv, timeoutMs: 120_000 });
    expect(whileRunning.code, whileRunning.stdout + whileRunning.stderr).to.equal(1);
    expect(whileRunning.stderr).to.match(/in use by process \d+; stop it first/);
    expect(fs.existsSync(archive)).to.equal(false);

    expect(await server.stop('SIGTERM')).to.equal(0);
    // A document caught half indexed, as when the server is killed in the middle of its job: its
    // job stays behind in the old database's queue, and the target must queue it again by itself.
    // Only the state is staged here, so the tables' triggers stay out of it (replica role).
    await inspectDatabase(source, async ({ pool }) => {
      const client = await pool.connect();
      try {
        await client.query(`set session_replication_role = replica`);
        await client.query(
          `update document set status = 'indexing', job_id = gen_random_uuid() where filename = 'tides.txt'`,
        );
        await client.query(`reset session_replication_role`);
      } finally {
        client.release();
      }
    });
    seen.counts = await tableCounts(source);
    sourceTableNames = Object.keys(seen.counts);
    for (const table of [
      'app_user',
      'user_group',
      'user_group_member',
      'document',
      'chunk',
      'chunk_term',
      'document_text',
      'vector_embedding',
      'source',
      'metadata_rule',
      'sync_schedule',
      'conversation',
      'conversation_turn',
      'audit_event',
      'branding',
      'branding_logo',
      'runtime_setting',
      'license_ed25519_key',
    ]) {
      expect(seen.counts[table], `rows of ${table}`).to.be.greaterThan(0);
    }
  });

  it('exports the stopped installation into one archive whose manifest counts every table', async () => {
    const result = await runCli(['export', '--out', archive], { cwd: dir, env: sourceEnv, timeoutMs: 300_000 });
    expect(result.code, result.stdout + result.stderr).to.equal(0);
    const lines = zlib.gunzipSync(fs.readFileSync(archive)).toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] as string) as Json;
    expect(header).to.include({ format: 'docqa-archive', version: 1 });
    expect(header.source.database).to.equal('embedded');
    expect(header.migrations).to.include('app_0012_audit_log');
    expect(Object.fromEntries((header.tables as Json[]).map((table) => [table.name, table.rows]))).to.deep.equal(
      seen.counts,
    );
    expect(JSON.parse(lines.at(-1) as string)).to.include({ end: true });
    // Uploaded bytes and the connector's state travel; the embedded database's files do not.
    const files = lines
      .filter((line) => line.startsWith('{"file":'))
      .map((line) => (JSON.parse(line) as Json).file as string);
    // One blob per distinct content: the three uploads and the two files the connector indexed.
    expect(files.filter((file) => file.startsWith('blobs/sha256/'))).to.have.length(
      new Set(seen.documents.map((document) => document.content_hash)).size,
    );
    expect(files.some((file) => file.startsWith('sources/filesystem/'))).to.equal(true);
    expect(files.some((file) => file.startsWith('pgdata/'))).to.equal(false);
  });

  it('refuses a truncated or altered archive and leaves the target as it was', async () => {
    // The target as DocQA's first start leaves it (settings, built-in group, default admin): still empty of data.
    const migrated = await runCli(['migrate'], { cwd: dir, env: targetEnv, timeoutMs: 180_000 });
    expect(migrated.code, migrated.stdout + migrated.stderr).to.equal(0);
    const fresh = await tableCounts({ url: target.url, dataDir: targetDir });
    expect(fresh.document).to.equal(0);

    const compressed = fs.readFileSync(archive);
    const truncated = path.join(dir, 'truncated.docqa');
    fs.writeFileSync(truncated, compressed.subarray(0, Math.floor(compressed.length * 0.6)));
    const cut = await runCli(['import', truncated], { cwd: dir, env: targetEnv, timeoutMs: 300_000 });
    expect(cut.code, cut.stdout + cut.stderr).to.equal(1);
    expect(cut.stderr).to.match(/damaged or incomplete/);

    // A valid gzip whose content was changed: one row's value, the checksum no longer matches.
    const lines = zlib.gunzipSync(compressed).toString('utf8').split('\n');
    const rowIndex = lines.findIndex((line) => line.includes('Ocean tides rise'));
    lines[rowIndex] = (lines[rowIndex] as string).replace('Ocean tides rise', 'Ocean tides sink');
    const altered = path.join(dir, 'altered.docqa');
    fs.writeFileSync(altered, zlib.gzipSync(lines.join('\n')));
    const changed = await runCli(['import', altered], { cwd: dir, env: targetEnv, timeoutMs: 300_000 });
    expect(changed.code, changed.stdout + changed.stderr).to.equal(1);
    expect(changed.stderr).to.match(/checksum does not match/);

    expect(await tableCounts({ url: target.url, dataDir: targetDir })).to.deep.equal(fresh);
    expect(fs.existsSync(path.join(targetDir, 'blobs', 'sha256'))).to.equal(false);
    expect(fs.readdirSync(targetDir).filter((name) => name.startsWith('.docqa-import-'))).to.deep.equal([]);
  });

  it('imports the archive: every table has the same row count as the source', async () => {
    const result = await runCli(['import', archive], { cwd: dir, env: targetEnv, timeoutMs: 600_000 });
    expect(result.code, result.stdout + result.stderr).to.equal(0);
    expect(result.stdout).to.match(/every table's row count matches the archive/);
    expect(result.stdout).to.match(
      /1 document\(s\) were waiting or being indexed; they are queued again when DocQA starts/,
    );
    expect(sourceTables(await tableCounts({ url: target.url, dataDir: targetDir }))).to.deep.equal(seen.counts);
  });

  it('serves everything on the target: documents, search, sign-in with TOTP, conversations, audit chain, rules, schedules, branding, re-indexing from the copied bytes', async () => {
    const server = await start(targetEnv);
    const admin = await ApiClient.login(server.url, 'admin', adminPassword);
    // The half-indexed document is indexed again at this first start, from the copied bytes.
    const documents = await until('the half-indexed document indexed again', async () => {
      const list = (await admin.call('GET', '/api/docs?limit=100')).body.items as Json[];
      return list.every((document) => document.status === 'indexed') ? list : null;
    });
    const shape = (list: Json[]) =>
      list
        .map((document) => [
          document.id,
          document.filename,
          document.status,
          document.content_hash,
          document.chunk_count,
          JSON.stringify(document.metadata),
        ])
        .sort();
    expect(shape(documents)).to.deep.equal(shape(seen.documents));

    const searchTop = (
      (await admin.call('POST', '/api/search', { query: 'light energy in the leaf', top_k: 3 })).body.items as Json[]
    ).map((item) => `${item.document_id} ${item.chunk_id} ${item.score}`);
    // The re-indexed document's chunks have new ids; every other hit is the same chunk with the same score.
    const tides = documents.find((document) => document.filename === 'tides.txt')?.id as string;
    expect(searchTop.map((hit) => hit.split(' ')[0])).to.deep.equal(seen.searchTop.map((hit) => hit.split(' ')[0]));
    expect(searchTop.filter((hit) => !hit.startsWith(tides))).to.deep.equal(
      seen.searchTop.filter((hit) => !hit.startsWith(tides)),
    );

    // Alice has TOTP: the password step asks for a code, and a code from her secret signs her in.
    const password = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: alicePassword }),
    });
    const step = (await password.json()) as Json;
    expect(step.mfa_required, JSON.stringify(step)).to.equal(true);
    const secret = fs.readFileSync(path.join(dir, 'alice-totp'), 'utf8');
    const counter = Math.max(Math.floor(Date.now() / 30_000), seen.aliceMfaCounter + 1);
    const verified = await fetch(`${server.url}/api/auth/mfa/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mfa_token: step.mfa_token, code: totpCode(secret, counter) }),
    });
    const tokens = (await verified.json()) as Json;
    expect(verified.status, JSON.stringify(tokens)).to.equal(200);
    const aliceConversation = await fetch(`${server.url}/api/conversations/${seen.conversationId}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(aliceConversation.status).to.equal(200);
    expect(((await aliceConversation.json()) as Json).turns).to.have.length(seen.conversationTurns);

    // The chain verifies from the genesis hash: entries and their order came over exactly, and a
    // new entry links onto the last imported one (its sequence continued where the source's was).
    expect(
      (await admin.call('POST', '/api/auth/users', { username: 'bob', password: 'bob-password-1', role: 'viewer' }))
        .status,
    ).to.equal(201);
    const audit = await admin.call('GET', '/api/audit/verify');
    expect(audit.body.valid, JSON.stringify(audit.body)).to.equal(true);
    expect(audit.body.checked).to.equal(seen.auditChecked + 1);
    const newest = (await admin.call('GET', '/api/audit?limit=2')).body.items as Json[];
    expect(newest[0]).to.include({ type: 'user.create', seq: newest[1]?.seq + 1, prev_hash: newest[1]?.hash });

    const schedules = (await admin.call('GET', '/api/schedules')).body.items as Json[];
    expect(
      schedules.map((schedule) => [schedule.id, schedule.cron, schedule.enabled, schedule.next_run]),
    ).to.deep.equal(
      seen.schedules.map((schedule) => [schedule.id, schedule.cron, schedule.enabled, schedule.next_run]),
    );
    const rules = (await admin.call('GET', `/api/metadata/${seen.rules[0]?.source_id}/rules`)).body.items as Json[];
    expect(rules).to.deep.equal(seen.rules);
    expect((await admin.call('GET', '/api/groups')).body.items).to.deep.equal(seen.groups);
    expect((await admin.call('GET', '/api/branding')).body).to.deep.equal(seen.branding);
    expect(
      Buffer.from(await (await fetch(`${server.url}/api/branding/logo`)).arrayBuffer()).equals(seen.logo),
    ).to.equal(true);

    // Every document's bytes are in the target's data directory, under their content hash.
    for (const document of documents) {
      const blob = path.join(targetDir, 'blobs', 'sha256', document.content_hash.slice(0, 2), document.content_hash);
      expect(crypto.createHash('sha256').update(fs.readFileSync(blob)).digest('hex'), document.filename).to.equal(
        document.content_hash,
      );
    }
    expect(await server.stop('SIGTERM')).to.equal(0);
  });

  it("registered the schedule with the target's job queue at its first start (pg-boss state is not carried)", async () => {
    const entries = await inspectDatabase(
      { url: target.url, dataDir: targetDir },
      async ({ pool }) =>
        (
          await pool.query<{ key: string; cron: string }>('select key, cron from pgboss.schedule where name = $1', [
            syncQueue,
          ])
        ).rows,
    );
    expect(entries).to.deep.equal(seen.schedules.map((schedule) => ({ key: schedule.id, cron: schedule.cron })));
  });

  it('refuses to import into a database that holds DocQA data, and changes nothing', async () => {
    const counts = await tableCounts({ url: target.url, dataDir: targetDir });
    const again = await runCli(['import', archive], { cwd: dir, env: targetEnv, timeoutMs: 300_000 });
    expect(again.code, again.stdout + again.stderr).to.equal(1);
    expect(again.stderr).to.match(/already holds DocQA data: .*document \(5\)/);
    expect(await tableCounts({ url: target.url, dataDir: targetDir })).to.deep.equal(counts);
  });
});
