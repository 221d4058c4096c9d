import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { startServer, type RunningServer } from '@docqa/server';
import { rulesTokens } from '@docqa/core/rules';
import { generateLicenseKeyPair, signLicense } from '@docqa/plugin-license-ed25519';
import { legalTokens } from './index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The edition as an operator starts it: by configuration, DOCQA_PRESET naming the package. */
describe('edition example: DocQA Legal, loaded with DOCQA_PRESET', function () {
  this.timeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-legal-'));
  const files = path.join(dir, 'files');
  let database: Awaited<ReturnType<typeof createTemporaryDatabase>> | null = null;
  let server: RunningServer;
  let admin: string;

  const call = async (method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${admin}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${url}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Json };
  };

  before(async () => {
    fs.mkdirSync(files);
    // Metadata rules are a PRO feature: the edition runs on a PRO license signed for the test.
    const vendor = generateLicenseKeyPair();
    const now = Math.floor(Date.now() / 1000);
    const licenseKey = signLicense(vendor.privateKeyPem, {
      plan: 'PRO',
      licensee: 'Test LLP',
      id: 'lic-legal',
      iat: now - 60,
      exp: now + 86_400,
    });
    database = process.env.TEST_DATABASE_URL ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL) : null;
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      env: {
        ...testSecrets,
        DOCQA_ENV: 'test',
        DOCQA_PRESET: '@docqa/example-edition-legal',
        DOCQA_DATA_DIR: path.join(dir, 'data'),
        DOCQA_SECRETS_DIR: path.join(dir, 'no-secrets'),
        CONNECTOR_ALLOWED_PATHS: files,
        LICENSE_PUBLIC_KEY: vendor.publicKeyPem,
        LICENSE_KEY: licenseKey,
        DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
        LOG_LEVEL: 'WARNING',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dir,
    });
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
    });
    admin = ((await login.json()) as Json).access_token as string;
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads its module and connector beside the standard ones, and leaves out S3 and git', async () => {
    expect(server.kernel.modules.ids).to.include.members(['legal-rule-pack', 'rules', 'analytics', 'branding']);
    const instances = server.kernel.plugins.instances.map((instance) => instance.instanceId);
    expect(instances).to.include.members(['matter-feed', 'connector-filesystem', 'integration-web']);
    expect(instances).to.not.include.members(['integration-s3']);
    expect(instances).to.not.include('integration-git');
    expect((await call('POST', '/api/integrations', { name: 'Bucket', type: 's3', config: {} })).status).to.equal(422);
  });

  it("shows the edition's branding until an admin sets one", async () => {
    expect((await call('GET', '/api/branding')).body.name).to.equal('DocQA Legal');
    const own = await call('PUT', '/api/branding', { name: 'Smith & Jones Answers' });
    expect(own.status).to.equal(200);
    expect((await call('GET', '/api/branding')).body.name).to.equal('Smith & Jones Answers');
  });

  it('gives every source the rule pack, and reports the coverage of its fields', async () => {
    fs.writeFileSync(
      path.join(files, 'nda.txt'),
      'Mutual NDA\n\nThis agreement is governed by the laws of the State of Delaware.\n\nSection 2.1 Confidentiality.',
    );
    const source = await call('POST', '/api/connectors', {
      name: 'Contracts',
      type: 'filesystem',
      config: { path: files },
    });
    expect(source.status).to.equal(201);
    const rulePack = server.kernel.resolve(legalTokens.rulePack);
    expect(await rulePack.applyToAll()).to.equal(1);
    const rules = await call('GET', `/api/metadata/${source.body.id}/rules`);
    expect(rules.body.items.map((rule: Json) => rule.field_name)).to.have.members([
      'case_number',
      'court',
      'governing_law',
      'clause',
    ]);
    const stored = await server.kernel.resolve(rulesTokens.service).rulesOf(source.body.id as string);
    expect(stored).to.have.lengthOf(4);
    // Applied once: a second pass adds nothing, and rules an admin changed are theirs.
    expect(await rulePack.applyToAll()).to.equal(0);
    const fields = await rulePack.coverage(source.body.id as string, { visibleToGroups: null });
    expect(fields.map((field) => field.field_name)).to.have.members([
      'case_number',
      'court',
      'governing_law',
      'clause',
    ]);
  });
});
