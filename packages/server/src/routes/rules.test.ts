import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { definePreset, type Plan } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { licenseStandIn } from '../testing/license-stand-in.js';
import connectorTemplate from '@docqa/example-connector-template';
import { startServer, type RunningServer } from '../server.js';
import { standardPreset } from '../presets/standard.js';
import { withoutLicenseGate } from '../testing/standard-with-license.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let plan: Plan = 'PRO';
const license = licenseStandIn(() => ({ plan, limits: { documents: null, fileSizeBytes: null, storageBytes: null } }));

const filler =
  'Plain words without any of the markers the rules look for, repeated to push text past the header. '.repeat(25);
const body = [
  'Department: Finance',
  'ARTICLE 1',
  'Section 7 applies to travel costs.',
  'ARTICLE 2',
  filler,
  'ARTICLE 3',
  'Section 9 applies to meals and Lorem ipsum.',
].join('\n\n');

describe('metadata rules (spec 2.4) through ingestion', function () {
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let sourceId: string;

  const call = async (method: string, route: string, payload?: unknown) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: payload === undefined ? null : JSON.stringify(payload),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const waitJob = async (id: string) => {
    for (let i = 0; i < 300; i++) {
      const job = (await call('GET', `/api/jobs/${id}`)).body;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('job did not finish');
  };
  const waitIndexed = async () => {
    for (let i = 0; i < 300; i++) {
      const items = (await call('GET', '/api/docs')).body.items as Json[];
      if (items.length > 0 && items.every((d) => d.status === 'indexed')) return items;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('not indexed');
  };
  const chunkMetadata = async () =>
    (
      await server.kernel.db.query<{ text: string; metadata: Record<string, string> }>(
        'select text, metadata from chunk order by position',
      )
    ).rows;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-rules-'));
    const feed = path.join(dataDir, 'feed.jsonl');
    fs.writeFileSync(
      feed,
      JSON.stringify({ id: 'finance-policy', title: 'Policy', body, updated_at: '2026-01-01T00:00:00Z' }),
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
        RAG_MIN_CHUNK_LENGTH: '5',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'test',
          plugins: (context) => [
            ...withoutLicenseGate(standardPreset.plugins(context)),
            { plugin: connectorTemplate },
            { plugin: license },
          ],
        }),
      },
      port: 0,
      host: '127.0.0.1',
    });
    admin = (
      (await (
        await fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
        })
      ).json()) as Json
    ).access_token;
    sourceId = (
      await call('POST', '/api/integrations', { name: 'Policies', type: 'json-feed', config: { path: feed } })
    ).body.id;
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('validates rules: Python syntax, exactly one capture group, fields named', async () => {
    const twoGroups = await call('POST', `/api/metadata/${sourceId}/rules`, {
      field_name: 'x',
      pattern: '(a)(b)',
      scope: 'full',
      level: 'document',
    });
    expect([twoGroups.status, twoGroups.body.errors[0].field]).to.deep.equal([422, 'body.pattern']);
    const broken = await call('POST', `/api/metadata/${sourceId}/rules`, {
      field_name: 'x',
      pattern: 'ok (a)',
      query_pattern: '(unclosed',
      scope: 'full',
      level: 'document',
    });
    expect(broken.body.errors.map((e: Json) => e.field)).to.deep.equal(['body.query_pattern']);
    const badScope = await call('POST', `/api/metadata/${sourceId}/rules`, {
      field_name: 'x',
      pattern: '(a)',
      scope: 'everywhere',
      level: 'document',
    });
    expect(badScope.body.errors.map((e: Json) => e.field)).to.deep.equal(['body.scope']);
    expect(
      (
        await call('POST', `/api/metadata/00000000-0000-4000-8000-000000000000/rules`, {
          field_name: 'x',
          pattern: '(a)',
          scope: 'full',
          level: 'document',
        })
      ).status,
    ).to.equal(404);
    const tried = await call('POST', `/api/metadata/${sourceId}/test-rule`, {
      rule: { field_name: 'section', pattern: 'Section (?P<n>\\d+)', scope: 'full', level: 'chunk' },
      sample_text: 'Intro.\n\nSection 4 here.\n\nMore text.',
    });
    expect(tried.status).to.equal(200);
    expect(tried.body.chunks.some((c: Json) => c.values.section === '4')).to.equal(true);
    expect((await call('GET', `/api/metadata/${sourceId}/rules`)).body).to.deep.equal({
      items: [],
      total: 0,
      limit: 50,
      offset: 0,
    });
    expect((await call('GET', `/api/metadata/${sourceId}/rules?limit=0`)).status).to.equal(422);
  });

  it('refuses unknown members of a rule (a misspelt field, __proto__) instead of dropping them, but takes back what a GET answered', async () => {
    const misspelt = await call('POST', `/api/metadata/${sourceId}/rules`, {
      field_name: 'x',
      pattern: '(a)',
      scope: 'full',
      level: 'document',
      prority: 5,
    });
    expect([misspelt.status, misspelt.body.code]).to.deep.equal([422, 'validation_failed']);
    const proto = await fetch(`${server.url}/api/metadata/${sourceId}/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: '{"field_name": "x", "pattern": "(a)", "scope": "full", "level": "document", "__proto__": {"priority": 9}}',
    });
    expect(proto.status).to.equal(422);
    const created = await call('POST', `/api/metadata/${sourceId}/rules`, {
      field_name: 'kept',
      pattern: 'Kept (\\w+)',
      scope: 'full',
      level: 'document',
    });
    expect(created.status).to.equal(201);
    const echoed = await call('PUT', `/api/metadata/${sourceId}/rules/${created.body.id}`, {
      ...created.body,
      priority: 3,
    });
    expect([echoed.status, echoed.body.priority]).to.deep.equal([200, 3]);
    expect((await call('DELETE', `/api/metadata/${sourceId}/rules/${created.body.id}`)).status).to.equal(204);
  });

  it('applies scope, level, inheritance, priority and boundaries at indexing; stores query_pattern', async () => {
    const rules = [
      { field_name: 'dept', pattern: 'Department:\\s*(\\w+)', scope: 'full', level: 'document', priority: 10 },
      { field_name: 'dept', pattern: '(Lorem)', scope: 'full', level: 'document', priority: 1 },
      { field_name: 'team', pattern: '^(\\w+)-', scope: 'filename', level: 'document' },
      { field_name: 'late', pattern: 'Section (9)', scope: 'header', level: 'document' },
      { field_name: 'late_full', pattern: 'Section (9)', scope: 'full', level: 'document' },
      {
        field_name: 'section',
        pattern: 'Section (\\d+)',
        query_pattern: '(?i)section\\s+(\\d+)',
        scope: 'full',
        level: 'chunk',
      },
      { field_name: 'article', pattern: '(ARTICLE \\d+)', scope: 'full', level: 'chunk', chunk_boundary: true },
    ];
    for (const rule of rules)
      expect((await call('POST', `/api/metadata/${sourceId}/rules`, rule)).status).to.equal(201);
    const stored = (await call('GET', `/api/metadata/${sourceId}/rules`)).body.items as Json[];
    expect(stored[0]).to.include({ field_name: 'dept', priority: 10, source_type: 'integration' });
    expect(stored.find((r) => r.field_name === 'section')?.query_pattern).to.equal('(?i)section\\s+(\\d+)');

    await waitJob((await call('POST', `/api/integrations/${sourceId}/sync`)).body.job_id);
    const [document] = await waitIndexed();
    expect(document?.metadata).to.include({ dept: 'Finance', team: 'finance', late_full: '9' });
    expect(document?.metadata).to.not.have.property('late');
    const chunks = await chunkMetadata();
    const byArticle = (n: string) => chunks.find((c) => c.text.includes(`ARTICLE ${n}`));
    expect(chunks.length).to.be.at.least(4);
    expect(byArticle('1')?.metadata).to.include({ article: 'ARTICLE 1', section: '7' });
    expect(byArticle('2')?.metadata, 'inherits the last section').to.include({ article: 'ARTICLE 2', section: '7' });
    expect(byArticle('3')?.metadata).to.include({ article: 'ARTICLE 3', section: '9', dept: 'Finance' });
    expect(byArticle('2')?.text).to.not.include('ARTICLE 3');
  });

  it('refresh re-applies changed rules to indexed chunks as a job', async () => {
    const ruleId = ((await call('GET', `/api/metadata/${sourceId}/rules`)).body.items as Json[]).find(
      (r) => r.field_name === 'section',
    )!.id;
    const updated = await call('PUT', `/api/metadata/${sourceId}/rules/${ruleId}`, {
      field_name: 'clause',
      pattern: 'Section (\\d+)',
      scope: 'full',
      level: 'chunk',
    });
    expect(updated.body.field_name).to.equal('clause');
    const job = await waitJob((await call('POST', `/api/metadata/${sourceId}/refresh`)).body.job_id);
    expect(job).to.include({ kind: 'metadata_refresh', status: 'succeeded' });
    const chunks = await chunkMetadata();
    expect(chunks.find((c) => c.text.includes('ARTICLE 3'))?.metadata)
      .to.include({ clause: '9' })
      .and.not.have.property('section');
  });

  it('says on the document when a rule was skipped for its work, at indexing and refresh, and clears it', async () => {
    // Catastrophic backtracking: every run of words before a full stop splits 2^n ways, none ends the text.
    const noise = await call('POST', `/api/metadata/${sourceId}/rules`, {
      field_name: 'noise',
      pattern: '(\\w+\\s?)+$',
      scope: 'full',
      level: 'document',
    });
    expect(noise.status).to.equal(201);
    const skipped = new RegExp(
      `^Indexed, but metadata rule ${noise.body.id} \\(field "noise"\\) was skipped: ` +
        'its pattern used more than \\d+ ms of CPU time\\. The other rules applied',
    );
    const only = async () => ((await call('GET', '/api/docs')).body.items as Json[])[0]!;
    await waitJob((await call('POST', `/api/integrations/${sourceId}/sync`)).body.job_id);
    await waitIndexed();
    expect((await waitJob((await call('POST', `/api/metadata/${sourceId}/refresh`)).body.job_id)).status).to.equal(
      'succeeded',
    );
    expect(await only()).to.include({ status: 'indexed' });
    expect((await only()).error).to.match(skipped);
    expect((await only()).metadata).to.not.have.property('noise');

    expect((await waitJob((await call('POST', '/api/index/rebuild')).body.job_id)).status).to.equal('succeeded');
    const rebuilt = await waitIndexed();
    expect(rebuilt[0]?.error).to.match(skipped);
    expect(rebuilt[0]?.metadata).to.not.have.property('noise');

    expect((await call('DELETE', `/api/metadata/${sourceId}/rules/${noise.body.id}`)).status).to.equal(204);
    await waitJob((await call('POST', `/api/metadata/${sourceId}/refresh`)).body.job_id);
    expect((await only()).error).to.equal(null);
  });

  it("schedules a source's sync in UTC cron, keeps pg-boss in step, and needs PRO", async () => {
    const bad = await call('POST', '/api/schedules', {
      source_type: 'integration',
      source_id: sourceId,
      cron: '61 * * * *',
    });
    expect([bad.status, bad.body.errors?.[0]?.field]).to.deep.equal([422, 'body.cron']);
    const wrongKind = await call('POST', '/api/schedules', {
      source_type: 'connector',
      source_id: sourceId,
      cron: '0 3 * * *',
    });
    expect(wrongKind.status).to.equal(422);
    const created = await call('POST', '/api/schedules', {
      source_type: 'integration',
      source_id: sourceId,
      cron: '0 3 * * *',
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ cron: '0 3 * * *', enabled: true, last_run: null });
    const next = new Date(created.body.next_run);
    expect([next.getUTCHours(), next.getUTCMinutes()]).to.deep.equal([3, 0]);
    expect(next.getTime() - Date.now()).to.be.within(0, 24 * 3600 * 1000);
    const inBoss = async () =>
      (
        await server.kernel.db.query<{ cron: string; timezone: string; data: Json }>(
          `select cron, timezone, data from pgboss.schedule where name = 'sync' and key = $1`,
          [created.body.id],
        )
      ).rows;
    expect(await inBoss()).to.deep.equal([
      {
        cron: '0 3 * * *',
        timezone: 'UTC',
        data: { sourceId, sourceType: 'integration', kind: 'sync', scheduleId: created.body.id },
      },
    ]);
    const disabled = await call('PUT', `/api/schedules/${created.body.id}`, { enabled: false, cron: '30 4 * * 1' });
    expect(disabled.body).to.include({ enabled: false, cron: '30 4 * * 1', next_run: null });
    expect(await inBoss()).to.deep.equal([]);
    await call('PUT', `/api/schedules/${created.body.id}`, { enabled: true });
    expect((await inBoss())[0]?.cron).to.equal('30 4 * * 1');
    expect((await call('GET', '/api/schedules')).body.total).to.equal(1);
    plan = 'FREE';
    expect((await call('GET', '/api/schedules')).status).to.equal(403);
    plan = 'PRO';
    expect((await call('DELETE', `/api/schedules/${created.body.id}`)).status).to.equal(204);
    expect(await inBoss()).to.deep.equal([]);
  });

  it('rules need PRO', async () => {
    plan = 'FREE';
    const res = await call('GET', `/api/metadata/${sourceId}/rules`);
    expect([res.status, res.body.code, res.body.required_plan]).to.deep.equal([403, 'plan_required', 'PRO']);
    plan = 'PRO';
  });
});
