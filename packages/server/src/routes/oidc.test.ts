import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { startServer, type RunningServer } from '../server.js';
import { groupsOf } from '../../../core/src/modules/identity/oidc-claims.js';
import { issuerOf } from '../../../core/src/modules/identity/oidc-discovery.js';
import { followToCallback, TestIdp } from '../testing/oidc-idp.test-support.js';
import { isSafeReturnPath } from '@docqa/core/identity';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const idpSecret = 'idp-client-secret-that-is-long-enough';
const publicUrl = 'https://docqa.example.com';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('OIDC single sign-on (against a real OpenID provider on loopback)', function () {
  const idp = new TestIdp();
  const cleanups: Array<() => Promise<void> | void> = [];
  let docqa: RunningServer;
  let fallback: RunningServer;
  let admin: Json;

  async function startDocqa(env: Record<string, string>, port = 0): Promise<RunningServer> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-oidc-'));
    const database = process.env.TEST_DATABASE_URL
      ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL)
      : null;
    const server = await startServer({
      env: {
        ...testSecrets,
        DOCQA_ENV: 'test',
        DOCQA_DATA_DIR: dir,
        DOCQA_SECRETS_DIR: dir,
        LOG_LEVEL: 'ERROR',
        DEFAULT_ADMIN_USER: 'root',
        DEFAULT_ADMIN_PASSWORD: 'first-admin-password',
        PUBLIC_URL: publicUrl,
        // The IdP runs on loopback: providers stored through the API reach it only when it is allowed.
        OUTBOUND_ALLOW: '127.0.0.1',
        ...(database ? { DATABASE_URL: database.url } : {}),
        ...env,
      },
      cwd: dir,
      inMemoryDatabase: database === null,
      port,
      host: '127.0.0.1',
    });
    cleanups.push(
      () => server.stop(),
      async () => database?.drop(),
      () => fs.rmSync(dir, { recursive: true, force: true }),
    );
    return server;
  }

  const call = async (
    server: RunningServer,
    method: string,
    route: string,
    options: { token?: string; body?: unknown } = {},
  ) => {
    const res = await fetch(server.url + route, {
      method,
      redirect: 'manual',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: options.body === undefined ? null : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Json };
  };

  /** A whole sign-in: DocQA's /login, the IdP, and back to the callback URL (not yet called). */
  async function signInAtIdp(server: RunningServer, provider: string, account: string, query = ''): Promise<string> {
    idp.nextAccount = account;
    const login = await fetch(`${server.url}/api/auth/oidc/${provider}/login${query}`, { redirect: 'manual' });
    expect(login.status, await login.clone().text()).to.equal(302);
    const location = login.headers.get('location') ?? '';
    expect(location.startsWith(`${idp.issuer}/auth?`)).to.equal(true);
    const authorize = new URL(location).searchParams;
    expect(authorize.get('code_challenge_method')).to.equal('S256');
    expect(authorize.get('state')).to.be.a('string').and.not.equal('');
    expect(authorize.get('nonce')).to.be.a('string').and.not.equal('');
    return followToCallback(location, `${server.url}/api/auth/oidc/${provider}/callback`);
  }

  const finish = (callbackUrl: string, accept = 'application/json') =>
    fetch(callbackUrl, { redirect: 'manual', headers: { accept } });
  const me = async (server: RunningServer, pair: Json) =>
    (await call(server, 'GET', '/api/auth/me', { token: pair.access_token })).body;

  before(async () => {
    await idp.listen();
    idp.accounts.set('alice-sub', {
      sub: 'alice-sub',
      email: 'alice@example.com',
      preferred_username: 'alice',
      groups: ['staff'],
    });
    idp.accounts.set('bob-sub', {
      sub: 'bob-sub',
      email: 'bob@example.com',
      preferred_username: 'bob',
      groups: ['staff', 'docqa-admins'],
    });
    idp.accounts.set('root-sub', {
      sub: 'root-sub',
      email: 'other-root@example.com',
      preferred_username: 'root',
      groups: [],
    });
    idp.accounts.set('carol-sub', { sub: 'carol-sub', email: 'carol.c@example.com', groups: [] });
    docqa = await startDocqa({});
    // The fallback server names its own callback in OIDC_CORP_REDIRECT_URI, so its port is chosen first.
    const fallbackPort = await freePort();
    const secretsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-oidc-secrets-'));
    fs.writeFileSync(path.join(secretsDir, 'oidc_corp_client_secret'), `${idpSecret}\n`);
    cleanups.push(() => fs.rmSync(secretsDir, { recursive: true, force: true }));
    fallback = await startDocqa(
      {
        OIDC_PROVIDERS: 'corp',
        OIDC_CORP_CLIENT_ID: 'docqa-corp',
        OIDC_CORP_DISCOVERY_URL: idp.discoveryUrl,
        OIDC_CORP_REDIRECT_URI: `http://127.0.0.1:${fallbackPort}/api/auth/oidc/corp/callback`,
        OIDC_CORP_SCOPES: 'openid email profile groups',
        OIDC_CORP_ADMIN_GROUPS: 'docqa-admins',
        OIDC_CORP_CLIENT_SECRET_FILE: path.join(secretsDir, 'oidc_corp_client_secret'),
      },
      fallbackPort,
    );
    idp.configure([
      { client_id: 'docqa', client_secret: idpSecret, redirect_uris: [`${docqa.url}/api/auth/oidc/test-idp/callback`] },
      {
        client_id: 'docqa-corp',
        client_secret: idpSecret,
        redirect_uris: [`${fallback.url}/api/auth/oidc/corp/callback`],
      },
    ]);
    admin = (
      await call(docqa, 'POST', '/api/auth/login', { body: { username: 'root', password: 'first-admin-password' } })
    ).body;
  });
  after(async () => {
    for (const cleanup of cleanups) await cleanup();
    await idp.stop();
  });

  describe('provider administration', () => {
    it('offers no provider while none is stored or configured', async () => {
      expect((await call(docqa, 'GET', '/api/auth/oidc/providers')).body).to.deep.equal({ items: [] });
    });

    it('refuses anonymous callers (401) and non-admins (403)', async () => {
      expect((await call(docqa, 'GET', '/api/admin/oidc/providers')).status).to.equal(401);
      await call(docqa, 'POST', '/api/auth/users', {
        token: admin.access_token,
        body: { username: 'viewer1', password: 'viewer-password-1' },
      });
      const viewer = (
        await call(docqa, 'POST', '/api/auth/login', { body: { username: 'viewer1', password: 'viewer-password-1' } })
      ).body;
      expect((await call(docqa, 'GET', '/api/admin/oidc/providers', { token: viewer.access_token })).status).to.equal(
        403,
      );
      expect(
        (await call(docqa, 'POST', '/api/admin/oidc/providers', { token: viewer.access_token, body: {} })).status,
      ).to.equal(403);
    });

    it('validates names, URLs and scopes', async () => {
      const base = { name: 'ok', display_name: 'OK', discovery_url: idp.discoveryUrl, client_id: 'x' };
      for (const body of [
        { ...base, name: 'Bad Name' },
        { ...base, discovery_url: 'ftp://idp.example/' },
        { ...base, redirect_uri: 'not a url' },
        { ...base, scopes: 'email profile' },
        { ...base, surprise: 1 },
      ]) {
        const res = await call(docqa, 'POST', '/api/admin/oidc/providers', { token: admin.access_token, body });
        expect([res.status, res.body.code], JSON.stringify(body)).to.deep.equal([422, 'validation_failed']);
      }
    });

    it('creates a provider whose secret is write-only and sealed at rest; duplicates answer 409', async () => {
      const body = {
        name: 'test-idp',
        display_name: 'Test IdP',
        discovery_url: idp.discoveryUrl,
        client_id: 'docqa',
        client_secret: idpSecret,
        scopes: 'openid email profile groups',
        admin_groups: ['docqa-admins'],
      };
      const created = await call(docqa, 'POST', '/api/admin/oidc/providers', { token: admin.access_token, body });
      expect(created.status).to.equal(201);
      expect(created.body).to.include({
        name: 'test-idp',
        client_secret: '***',
        redirect_uri: `${publicUrl}/api/auth/oidc/test-idp/callback`,
        enabled: true,
        groups_claim: 'groups',
      });
      expect(
        (await call(docqa, 'POST', '/api/admin/oidc/providers', { token: admin.access_token, body })).status,
      ).to.equal(409);
      // The real callback of this test server, now that the provider exists.
      const updated = await call(docqa, 'PUT', `/api/admin/oidc/providers/${created.body.id}`, {
        token: admin.access_token,
        body: { redirect_uri: `${docqa.url}/api/auth/oidc/test-idp/callback` },
      });
      expect(updated.body).to.include({
        client_secret: '***',
        redirect_uri: `${docqa.url}/api/auth/oidc/test-idp/callback`,
      });
      const listed = await call(docqa, 'GET', '/api/admin/oidc/providers?limit=10', { token: admin.access_token });
      expect(listed.body).to.include({ total: 1, limit: 10, offset: 0 });
      expect(JSON.stringify(listed.body)).to.not.include(idpSecret);
      const { rows } = await docqa.kernel.db.query<{ client_secret: string }>(
        'select client_secret from oidc_provider',
      );
      expect(rows[0]?.client_secret).to.match(/^v1\./).and.not.include(idpSecret);
      expect((await call(docqa, 'GET', '/api/auth/oidc/providers')).body).to.deep.equal({
        items: [{ name: 'test-idp', display_name: 'Test IdP' }],
      });
    });
  });

  describe('sign-in', () => {
    it('provisions a viewer on first sign-in and finds the same account the next time', async () => {
      const first = await finish(await signInAtIdp(docqa, 'test-idp', 'alice-sub'));
      expect(first.status).to.equal(200);
      expect(first.headers.get('cache-control')).to.equal('no-store');
      const pair = (await first.json()) as Json;
      expect(pair).to.have.keys('access_token', 'refresh_token', 'token_type');
      const alice = await me(docqa, pair);
      expect(alice).to.include({
        username: 'alice',
        email: 'alice@example.com',
        role: 'viewer',
        sso_provider: 'test-idp',
      });
      const again = (await (await finish(await signInAtIdp(docqa, 'test-idp', 'alice-sub'))).json()) as Json;
      expect((await me(docqa, again)).id).to.equal(alice.id);
    });

    it('makes members of an admin group admins', async () => {
      const pair = (await (await finish(await signInAtIdp(docqa, 'test-idp', 'bob-sub'))).json()) as Json;
      expect(await me(docqa, pair)).to.include({ username: 'bob', role: 'admin', sso_provider: 'test-idp' });
    });

    it("picks a free user name: a suffix on conflict, else the email's local part", async () => {
      const root = (await (await finish(await signInAtIdp(docqa, 'test-idp', 'root-sub'))).json()) as Json;
      expect(await me(docqa, root)).to.include({ username: 'root-2', role: 'viewer' });
      const carol = (await (await finish(await signInAtIdp(docqa, 'test-idp', 'carol-sub'))).json()) as Json;
      expect((await me(docqa, carol)).username).to.equal('carol.c');
    });

    it('sends a browser to the web UI with the tokens in the fragment', async () => {
      const res = await finish(
        await signInAtIdp(docqa, 'test-idp', 'alice-sub', '?return_to=/chat'),
        'text/html,application/xhtml+xml,*/*;q=0.8',
      );
      expect(res.status).to.equal(302);
      const location = new URL(res.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).to.equal(`${publicUrl}/chat`);
      const fragment = new URLSearchParams(location.hash.slice(1));
      expect(fragment.get('token_type')).to.equal('bearer');
      expect((await me(docqa, { access_token: fragment.get('access_token') })).username).to.equal('alice');
      expect((await call(docqa, 'GET', '/api/auth/oidc/test-idp/login?return_to=//evil.example')).status).to.equal(422);
    });

    it('refuses a replayed callback and a tampered state with 401', async () => {
      const callbackUrl = await signInAtIdp(docqa, 'test-idp', 'alice-sub');
      const tampered = new URL(callbackUrl);
      tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
      const forged = await finish(tampered.href);
      expect(forged.status).to.equal(401);
      expect(((await forged.json()) as Json).code).to.equal('unauthorized');
      expect((await finish(callbackUrl)).status, 'the real state still works').to.equal(200);
      const replay = await finish(callbackUrl);
      expect(replay.status).to.equal(401);
      expect(((await replay.json()) as Json).detail).to.match(/already finished/);
    });

    it('answers 401 with the reason when the IdP refuses the sign-in', async () => {
      idp.refuseNext = true;
      const res = await finish(await signInAtIdp(docqa, 'test-idp', 'alice-sub'));
      const body = (await res.json()) as Json;
      expect([res.status, body.code]).to.deep.equal([401, 'unauthorized']);
      expect(body.detail).to.include('access_denied');
    });

    it('answers 404 for unknown and disabled providers', async () => {
      expect((await call(docqa, 'GET', '/api/auth/oidc/nope/login')).status).to.equal(404);
      expect((await call(docqa, 'GET', '/api/auth/oidc/nope/callback?state=x&code=y')).status).to.equal(404);
      const [provider] = (await call(docqa, 'GET', '/api/admin/oidc/providers', { token: admin.access_token })).body
        .items as Json[];
      await call(docqa, 'PUT', `/api/admin/oidc/providers/${provider!.id}`, {
        token: admin.access_token,
        body: { enabled: false },
      });
      expect((await call(docqa, 'GET', '/api/auth/oidc/test-idp/login')).status).to.equal(404);
      expect((await call(docqa, 'GET', '/api/auth/oidc/providers')).body.items).to.deep.equal([]);
      await call(docqa, 'PUT', `/api/admin/oidc/providers/${provider!.id}`, {
        token: admin.access_token,
        body: { enabled: true },
      });
      expect((await call(docqa, 'GET', '/api/auth/oidc/test-idp/login')).status).to.equal(302);
    });

    it('answers 503 when the IdP cannot be reached, and deletes a provider', async () => {
      const unreachable = `http://127.0.0.1:${await freePort()}/.well-known/openid-configuration`;
      const created = await call(docqa, 'POST', '/api/admin/oidc/providers', {
        token: admin.access_token,
        body: { name: 'down', display_name: 'Down', discovery_url: unreachable, client_id: 'down' },
      });
      expect(created.body.client_secret).to.equal(null);
      expect((await call(docqa, 'GET', '/api/auth/oidc/down/login')).body.code).to.equal('unavailable');
      expect(
        (await call(docqa, 'DELETE', `/api/admin/oidc/providers/${created.body.id}`, { token: admin.access_token }))
          .status,
      ).to.equal(204);
      expect(
        (await call(docqa, 'GET', `/api/admin/oidc/providers/${created.body.id}`, { token: admin.access_token }))
          .status,
      ).to.equal(404);
    });
  });

  describe('fallback from OIDC_* variables', () => {
    it('offers and signs in through the configured provider while none is stored', async () => {
      expect((await call(fallback, 'GET', '/api/auth/oidc/providers')).body).to.deep.equal({
        items: [{ name: 'corp', display_name: 'Corp' }],
      });
      const res = await finish(await signInAtIdp(fallback, 'corp', 'bob-sub'));
      expect(res.status).to.equal(200);
      const pair = (await res.json()) as Json;
      expect(await me(fallback, pair)).to.include({ username: 'bob', role: 'admin', sso_provider: 'corp' });
    });
  });

  describe('without OUTBOUND_ALLOW', () => {
    let strict: RunningServer;
    before(async () => {
      // One client may start 3 sign-ins a minute here; the tests below count on it, in order.
      strict = await startDocqa({
        OUTBOUND_ALLOW: '',
        OIDC_START_RATE_LIMIT: '1r/m',
        OIDC_START_RATE_LIMIT_BURST: '2',
      });
    });

    it('refuses a stored provider on loopback with 503 naming OUTBOUND_ALLOW, sending nothing to it', async () => {
      const root = (
        await call(strict, 'POST', '/api/auth/login', { body: { username: 'root', password: 'first-admin-password' } })
      ).body;
      const body = { name: 'local', display_name: 'Local', discovery_url: idp.discoveryUrl, client_id: 'docqa' };
      expect(
        (await call(strict, 'POST', '/api/admin/oidc/providers', { token: root.access_token, body })).status,
      ).to.equal(201);
      const discoveriesBefore = idp.discoveryRequests;
      const refused = await call(strict, 'GET', '/api/auth/oidc/local/login');
      expect(refused.status).to.equal(503);
      expect(refused.body.code).to.equal('unavailable');
      expect(refused.body.detail).to.contain('127.0.0.1 is a loopback address').and.contain('OUTBOUND_ALLOW');
      expect(idp.discoveryRequests).to.equal(discoveriesBefore);
    });

    it('answers 429 with Retry-After to a client past OIDC_START_RATE_LIMIT, before any work', async () => {
      // The start above counted; starts for a provider that does not exist count too.
      for (let i = 0; i < 2; i++) {
        expect((await call(strict, 'GET', '/api/auth/oidc/nobody/login')).status).to.equal(404);
      }
      const over = await call(strict, 'GET', '/api/auth/oidc/nobody/login');
      expect(over.status).to.equal(429);
      expect(over.body.code).to.equal('rate_limited');
      expect(over.body.detail).to.contain('OIDC_START_RATE_LIMIT');
      expect(Number(over.headers.get('retry-after'))).to.be.greaterThan(0);
      // Other endpoints of the same client are not held back.
      expect((await call(strict, 'GET', '/api/auth/oidc/providers')).status).to.equal(200);
    });
  });
});

describe('OIDC helpers', () => {
  it('accepts only paths of this site as return_to', () => {
    expect(['/', '/chat', '/docs/a?b=1'].every(isSafeReturnPath)).to.equal(true);
    expect(
      ['//evil.example', '/\\evil.example', 'https://evil.example', 'chat', '/a#b', '/ a'].some(isSafeReturnPath),
    ).to.equal(false);
  });

  it('takes the issuer out of a discovery URL', () => {
    expect(issuerOf('https://idp.example/realms/corp/.well-known/openid-configuration').href).to.equal(
      'https://idp.example/realms/corp',
    );
    expect(issuerOf('https://idp.example/.well-known/openid-configuration').href).to.equal('https://idp.example/');
    expect(issuerOf('https://idp.example/tenant').href).to.equal('https://idp.example/tenant');
  });

  it('reads groups from a list, a single name or a dotted path', () => {
    expect(groupsOf({ groups: ['a', 1, 'b'] }, 'groups')).to.deep.equal(['a', 'b']);
    expect(groupsOf({ groups: 'a' }, 'groups')).to.deep.equal(['a']);
    expect(groupsOf({ realm_access: { roles: ['admin'] } }, 'realm_access.roles')).to.deep.equal(['admin']);
    expect(groupsOf({}, 'groups')).to.deep.equal([]);
  });
});
