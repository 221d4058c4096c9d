import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { startServer, type RunningServer } from '../server.js';
import { VerifiedUsers, type VerifiedUser } from '../../../core/src/modules/identity/verified-users.js';

const ada: VerifiedUser = { id: 'u1', username: 'ada', role: 'editor', token_version: 0, family_revoked: false };

describe('VerifiedUsers (what token checks keep)', () => {
  it('keeps a read for its time to live, per sign-in, then reads again', async () => {
    let now = 0;
    const cache = new VerifiedUsers(5000, 100, () => now);
    let reads = 0;
    const read = () => cache.load('u1', 'f1', async () => (reads++, ada));
    await read();
    await read();
    expect(reads).to.equal(1);
    await cache.load('u1', 'f2', async () => (reads++, ada));
    expect(reads, 'another sign-in of the same user').to.equal(2);
    now = 5001;
    await read();
    expect(reads).to.equal(3);
  });

  it('forgets a user at once, every sign-in of theirs, and nobody else', async () => {
    const cache = new VerifiedUsers(60_000);
    await cache.load('u1', 'f1', async () => ada);
    await cache.load('u1', null, async () => ada);
    await cache.load('u2', 'f3', async () => ({ ...ada, id: 'u2' }));
    cache.forget('u1');
    expect(cache.get('u1', 'f1')).to.equal(null);
    expect(cache.get('u1', null)).to.equal(null);
    expect(cache.get('u2', 'f3')?.id).to.equal('u2');
    expect(cache.size).to.equal(1);
  });

  it('does not keep a read that was under way while a user was forgotten (it may predate the change)', async () => {
    const cache = new VerifiedUsers(60_000);
    let finish: (user: VerifiedUser) => void = () => undefined;
    const pending = cache.load('u1', 'f1', () => new Promise<VerifiedUser>((resolve) => (finish = resolve)));
    cache.forget('u1');
    finish(ada);
    expect(await pending, 'the request that asked still gets its answer').to.deep.equal(ada);
    expect(cache.get('u1', 'f1'), 'but it is not kept').to.equal(null);
  });

  it('does not keep unknown users, and stays within its bound', async () => {
    const cache = new VerifiedUsers(60_000, 3);
    await cache.load('gone', null, async () => null);
    expect(cache.size).to.equal(0);
    for (let i = 0; i < 10; i++) await cache.load(`u${i}`, null, async () => ada);
    expect(cache.size).to.be.at.most(3);
  });
});

// Each change is made after the token was used (so its check is kept), and must refuse it on the next request.
describe('access tokens after account changes (through HTTP)', function () {
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;

  const call = async (method: string, route: string, token?: string, body?: unknown) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, string> };
  };
  const login = async (username: string, password: string) =>
    (await call('POST', '/api/auth/login', undefined, { username, password })).body;
  /** A new viewer, signed in, whose token has been checked (and so is kept). */
  const signedInViewer = async (username: string) => {
    const created = await call('POST', '/api/auth/users', admin, { username, password: `${username}-password-1` });
    const tokens = await login(username, `${username}-password-1`);
    expect((await call('GET', '/api/auth/me', tokens.access_token)).status).to.equal(200);
    return { id: created.body.id as string, ...tokens } as { id: string; access_token: string; refresh_token: string };
  };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-verified-'));
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
      port: 0,
      host: '127.0.0.1',
    });
    admin = (await login('admin', 'admin-password-1')).access_token as string;
  });

  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a deleted user is refused at once', async () => {
    const user = await signedInViewer('deleted');
    expect((await call('DELETE', `/api/auth/users/${user.id}`, admin)).status).to.equal(204);
    expect((await call('GET', '/api/auth/me', user.access_token)).status).to.equal(401);
  });

  it('a promoted or demoted user is refused at once (the role in a token is no longer theirs)', async () => {
    const user = await signedInViewer('promoted');
    expect((await call('PUT', `/api/auth/users/${user.id}`, admin, { role: 'editor' })).status).to.equal(200);
    expect((await call('GET', '/api/auth/me', user.access_token)).status).to.equal(401);
    const again = await login('promoted', 'promoted-password-1');
    expect((await call('GET', '/api/auth/me', again.access_token)).body.role).to.equal('editor');
    expect((await call('PUT', `/api/auth/users/${user.id}`, admin, { role: 'viewer' })).status).to.equal(200);
    expect((await call('GET', '/api/auth/me', again.access_token)).status).to.equal(401);
  });

  it('a password set by an admin, a changed password and sign-out everywhere end tokens at once', async () => {
    const user = await signedInViewer('passwords');
    const set = await call('PUT', `/api/auth/users/${user.id}`, admin, { password: 'passwords-password-2' });
    expect(set.status).to.equal(200);
    expect((await call('GET', '/api/auth/me', user.access_token)).status).to.equal(401);

    const second = await login('passwords', 'passwords-password-2');
    expect((await call('GET', '/api/auth/me', second.access_token)).status).to.equal(200);
    const changed = await call('PUT', '/api/auth/password', second.access_token, {
      current_password: 'passwords-password-2',
      new_password: 'passwords-password-3',
    });
    expect(changed.status).to.equal(200);
    expect((await call('GET', '/api/auth/me', second.access_token)).status).to.equal(401);

    const third = changed.body.access_token as string;
    expect((await call('GET', '/api/auth/me', third)).status).to.equal(200);
    expect((await call('POST', '/api/auth/logout-all', third)).status).to.equal(204);
    expect((await call('GET', '/api/auth/me', third)).status).to.equal(401);
  });

  it('a reused refresh token ends the access token of its sign-in at once', async () => {
    const user = await signedInViewer('reused');
    const rotated = await call('POST', '/api/auth/refresh', undefined, { refresh_token: user.refresh_token });
    expect((await call('GET', '/api/auth/me', rotated.body.access_token)).status).to.equal(200);
    await call('POST', '/api/auth/refresh', undefined, { refresh_token: user.refresh_token });
    expect((await call('GET', '/api/auth/me', rotated.body.access_token)).status).to.equal(401);
    expect((await call('GET', '/api/auth/me', user.access_token)).status).to.equal(401);
  });

  it('a user deleted on another replica meanwhile: the kept check lets the token in, /me answers 401, not 500', async () => {
    const user = await signedInViewer('gone-elsewhere');
    await server.kernel.db.query('delete from app_user where id = $1', [user.id]);
    const me = await call('GET', '/api/auth/me', user.access_token);
    expect([me.status, me.body.code]).to.deep.equal([401, 'unauthorized']);
  });

  it("another replica's change (made in the database alone) counts within the propagation delay", async function () {
    this.timeout(20_000);
    const user = await signedInViewer('elsewhere');
    await server.kernel.db.query('update app_user set token_version = token_version + 1 where id = $1', [user.id]);
    const started = Date.now();
    while ((await call('GET', '/api/auth/me', user.access_token)).status === 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // propagationSeconds (5 s), and a little for a slow machine.
    expect(Date.now() - started).to.be.below(6500);
  });
});
