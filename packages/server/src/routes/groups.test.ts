import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { definePreset, type Plan } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { licenseStandIn } from '../testing/license-stand-in.js';
import { startServer, type RunningServer } from '../server.js';
import { everyoneGroupId } from '@docqa/core/groups';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

// A license gate whose plan the test switches, standing in for a signed license.
let plan: Plan = 'ENTERPRISE';
const switchableLicense = licenseStandIn(() => ({ plan }));

describe('groups and resource access', function () {
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  const ids: Record<string, string> = {};

  const call = async (method: string, route: string, token: string | null, body?: unknown) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const login = async (username: string, password: string) =>
    (await call('POST', '/api/auth/login', null, { username, password })).body.access_token as string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-groups-'));
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
        standard: definePreset({ id: 'standard', description: 'test', plugins: () => [{ plugin: switchableLicense }] }),
      },
      port: 0,
      host: '127.0.0.1',
    });
    admin = await login('admin', 'admin-password-1');
    for (const name of ['alice', 'bob']) {
      ids[name] = (
        await call('POST', '/api/auth/users', admin, { username: name, password: `${name}-password-1` })
      ).body.id;
    }
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('on ENTERPRISE: groups, membership and grants decide who sees a resource', async () => {
    plan = 'ENTERPRISE';
    const finance = await call('POST', '/api/groups', admin, { name: 'Finance', description: 'money' });
    expect(finance.status).to.equal(201);
    expect(
      (await call('POST', '/api/groups', admin, { name: 'finance' })).status,
      'names are unique ignoring case',
    ).to.equal(409);
    expect((await call('PUT', `/api/groups/${finance.body.id}/members/${ids.alice}`, admin)).status).to.equal(204);
    const granted = await call('PUT', `/api/access/connector/finance-share`, admin, { group_ids: [finance.body.id] });
    expect(granted.body.group_ids).to.deep.equal([finance.body.id]);
    expect(
      (await call('PUT', `/api/access/connector/x`, admin, { group_ids: ['00000000-0000-4000-8000-00000000dead'] }))
        .status,
    ).to.equal(422);

    const alice = { userId: ids.alice as string, username: 'alice', role: 'viewer' as const };
    const bob = { userId: ids.bob as string, username: 'bob', role: 'viewer' as const };
    const groups = server.services.groups;
    expect(await groups.canSee(alice, 'connector', 'finance-share')).to.equal(true);
    expect(await groups.canSee(bob, 'connector', 'finance-share')).to.equal(false);
    expect(await groups.canSee(bob, 'connector', 'open-share'), 'no grants: open').to.equal(true);
    expect(await groups.scopeFor(bob)).to.deep.equal({ all: false, groupIds: [everyoneGroupId] });
    expect(await groups.scopeFor({ userId: 'x', username: 'root', role: 'admin' })).to.deep.equal({ all: true });

    const aliceToken = await login('alice', 'alice-password-1');
    const mine = await call('GET', '/api/auth/me/groups', aliceToken);
    expect(mine.body.items.map((g: Json) => g.name)).to.deep.equal(['everyone', 'Finance']);
    const detail = await call('GET', `/api/groups/${finance.body.id}`, admin);
    expect(detail.body.members.map((m: Json) => m.username)).to.deep.equal(['alice']);
    expect((await call('GET', '/api/groups', aliceToken)).status, 'group management is for admins').to.equal(403);

    expect((await call('DELETE', `/api/groups/${everyoneGroupId}`, admin)).status).to.equal(409);
    expect((await call('DELETE', `/api/groups/${finance.body.id}`, admin)).status).to.equal(204);
    expect(await groups.canSee(bob, 'connector', 'finance-share'), 'grants go with their group').to.equal(true);
  });

  it('on FREE and PRO only everyone exists and everything is open', async () => {
    plan = 'ENTERPRISE';
    const hidden = await call('POST', '/api/groups', admin, { name: 'Legal' });
    await call('PUT', `/api/access/document/contract-1`, admin, { group_ids: [hidden.body.id] });
    plan = 'PRO';
    const list = await call('GET', '/api/groups', admin);
    expect(list.body.items.map((g: Json) => g.name)).to.deep.equal(['everyone']);
    const create = await call('POST', '/api/groups', admin, { name: 'Ops' });
    expect([create.status, create.body.code, create.body.required_plan]).to.deep.equal([
      403,
      'plan_required',
      'ENTERPRISE',
    ]);
    expect(
      await server.services.groups.canSee(
        { userId: ids.bob as string, username: 'bob', role: 'viewer' },
        'document',
        'contract-1',
      ),
    ).to.equal(true);
    expect((await call('GET', `/api/groups/${hidden.body.id}`, admin)).status).to.equal(404);
    plan = 'ENTERPRISE';
  });
});
