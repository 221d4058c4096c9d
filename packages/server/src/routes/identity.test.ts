import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { definePlugin, definePreset, type EmailMessage } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { startServer, type RunningServer } from '../server.js';
import { totpCode } from '@docqa/core/crypto';
import { routes } from '../routes/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const mailbox: EmailMessage[] = [];
const recordingEmail = definePlugin({
  apiVersion: 1,
  kind: 'email',
  id: 'email-recording',
  configSchema: z.object({}),
  deps: {},
  init: () => ({ send: async (message: EmailMessage) => void mailbox.push(message) }),
});

describe('identity (through HTTP)', function () {
  let server: RunningServer;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;

  const call = async (
    method: string,
    route: string,
    options: { token?: string; body?: unknown; raw?: string } = {},
  ) => {
    const res = await fetch(server.url + route, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: options.raw ?? (options.body === undefined ? null : JSON.stringify(options.body)),
    });
    const text = await res.text();
    // Every answer is JSON but a route's own format (the Prometheus text of /api/metrics).
    const json = res.headers.get('content-type')?.includes('json') ?? false;
    return { status: res.status, headers: res.headers, body: (text && json ? JSON.parse(text) : {}) as Json };
  };
  const login = async (username: string, password: string) =>
    (await call('POST', '/api/auth/login', { body: { username, password } })).body;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-identity-'));
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
        DEFAULT_ADMIN_USER: 'root',
        DEFAULT_ADMIN_PASSWORD: 'first-admin-password',
        DEFAULT_ADMIN_EMAIL: 'root@example.com',
        RATE_LIMIT_RESET: '10r/m',
        RATE_LIMIT_RESET_BURST: '4',
        PUBLIC_URL: 'https://docqa.example.com',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      inMemoryDatabase: database === null,
      presets: {
        standard: definePreset({ id: 'standard', description: 'test', plugins: () => [{ plugin: recordingEmail }] }),
      },
      port: 0,
      host: '127.0.0.1',
    });
  });
  after(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the default admin on first start, who signs in', async () => {
    const pair = await login('ROOT', 'first-admin-password');
    expect(pair).to.have.keys('access_token', 'refresh_token', 'token_type');
    const me = await call('GET', '/api/auth/me', { token: pair.access_token });
    expect(me.body).to.deep.include({ username: 'root', email: 'root@example.com', role: 'admin', mfa_enabled: false });
    expect(me.body).to.not.have.property('password_hash');
    const claims = jwt.decode(pair.access_token) as Json;
    expect(claims).to.include({ sub: me.body.id, role: 'admin', typ: 'access', ver: 0 });
    expect(claims.exp - claims.iat).to.equal(900);
  });

  it('refuses wrong passwords and unknown users alike', async () => {
    const wrong = await call('POST', '/api/auth/login', { body: { username: 'root', password: 'nope-nope-nope' } });
    const unknown = await call('POST', '/api/auth/login', { body: { username: 'ghost', password: 'nope-nope-nope' } });
    expect([wrong.status, wrong.body.code]).to.deep.equal([401, 'invalid_credentials']);
    expect(unknown.body).to.deep.equal(wrong.body);
  });

  it('answers 401 to expired, malformed, wrongly signed and refresh-as-access tokens', async () => {
    const pair = await login('root', 'first-admin-password');
    const claims = jwt.decode(pair.access_token) as Json;
    const expired = jwt.sign(
      { role: 'admin', typ: 'access', ver: 0, exp: Math.floor(Date.now() / 1000) - 10 },
      testSecrets.JWT_SECRET_KEY,
      { subject: claims.sub, jwtid: 'x' },
    );
    const forged = jwt.sign({ role: 'admin', typ: 'access', ver: 0 }, 'another-secret-of-at-least-32-characters', {
      subject: claims.sub,
      jwtid: 'y',
      expiresIn: 60,
    });
    const cases: Array<[string, string]> = [
      [expired, 'token_expired'],
      ['not.a.jwt', 'unauthorized'],
      [forged, 'unauthorized'],
      [pair.refresh_token, 'unauthorized'],
    ];
    for (const [token, code] of cases) {
      const res = await call('GET', '/api/auth/me', { token });
      expect([res.status, res.body.code], code).to.deep.equal([401, code]);
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
    }
  });

  it('rotates refresh tokens and ends the whole sign-in when one is reused', async () => {
    const first = await login('root', 'first-admin-password');
    const second = await call('POST', '/api/auth/refresh', { body: { refresh_token: first.refresh_token } });
    expect(second.status).to.equal(200);
    expect(second.body.refresh_token).to.not.equal(first.refresh_token);
    const reuse = await call('POST', '/api/auth/refresh', { body: { refresh_token: first.refresh_token } });
    expect([reuse.status, reuse.body.code]).to.deep.equal([401, 'unauthorized']);
    const afterReuse = await call('POST', '/api/auth/refresh', { body: { refresh_token: second.body.refresh_token } });
    expect(afterReuse.status, 'the family is revoked').to.equal(401);
    const access = await call('POST', '/api/auth/refresh', { body: { refresh_token: first.access_token } });
    expect(access.status).to.equal(401);
  });

  it('a reused refresh token ends the access tokens of that sign-in at once, and no other sign-in', async () => {
    const other = await login('root', 'first-admin-password');
    const first = await login('root', 'first-admin-password');
    const second = (await call('POST', '/api/auth/refresh', { body: { refresh_token: first.refresh_token } })).body;
    expect((await call('GET', '/api/auth/me', { token: second.access_token })).status).to.equal(200);
    expect((await call('POST', '/api/auth/refresh', { body: { refresh_token: first.refresh_token } })).status).to.equal(
      401,
    );
    expect((await call('GET', '/api/auth/me', { token: first.access_token })).status).to.equal(401);
    expect((await call('GET', '/api/auth/me', { token: second.access_token })).status).to.equal(401);
    expect((await call('GET', '/api/auth/me', { token: other.access_token })).status).to.equal(200);
  });

  it('changes token lifetimes at run time', async () => {
    const admin = await login('root', 'first-admin-password');
    const res = await call('PATCH', '/api/admin/auth/settings', {
      token: admin.access_token,
      body: { access_token_expire_seconds: 120 },
    });
    expect(res.body).to.deep.equal({ access_token_expire_seconds: 120, refresh_token_expire_seconds: 604800 });
    const claims = jwt.decode((await login('root', 'first-admin-password')).access_token) as Json;
    expect(claims.exp - claims.iat).to.equal(120);
    await call('PATCH', '/api/admin/auth/settings', {
      token: admin.access_token,
      body: { access_token_expire_seconds: 900 },
    });
  });

  describe('users', () => {
    let admin: Json;
    before(async () => {
      admin = await login('root', 'first-admin-password');
    });

    it('admins create, read, update and delete users; others may not', async () => {
      const created = await call('POST', '/api/auth/users', {
        token: admin.access_token,
        body: { username: 'vera', password: 'vera-password-1' },
      });
      expect(created.status).to.equal(201);
      expect(created.body).to.include({ username: 'vera', role: 'viewer', email: null });
      const duplicate = await call('POST', '/api/auth/users', {
        token: admin.access_token,
        body: { username: 'VERA', password: 'vera-password-1' },
      });
      expect([duplicate.status, duplicate.body.code]).to.deep.equal([409, 'conflict']);
      const vera = await login('vera', 'vera-password-1');
      expect((await call('GET', '/api/auth/users', { token: vera.access_token })).status).to.equal(403);
      const list = await call('GET', '/api/auth/users?limit=1', { token: admin.access_token });
      expect(list.body).to.include({ limit: 1, offset: 0 });
      expect(list.body.items).to.have.length(1);
      const everyone = await call('GET', '/api/auth/users?limit=500', { token: admin.access_token });
      expect(everyone.body.total).to.equal(everyone.body.items.length);
      expect(everyone.body.items.map((u: Json) => u.username)).to.include.members(['root', 'vera']);
      const promoted = await call('PUT', `/api/auth/users/${created.body.id}`, {
        token: admin.access_token,
        body: { role: 'editor', email: 'vera@example.com' },
      });
      expect(promoted.body).to.include({ role: 'editor', email: 'vera@example.com' });
      expect(
        (await call('GET', '/api/auth/me', { token: vera.access_token })).status,
        'a role change ends sessions',
      ).to.equal(401);
      expect(
        (await call('DELETE', `/api/auth/users/${created.body.id}`, { token: admin.access_token })).status,
      ).to.equal(204);
      expect((await call('GET', `/api/auth/users/${created.body.id}`, { token: admin.access_token })).status).to.equal(
        404,
      );
    });

    it('keeps at least one admin', async () => {
      const me = await call('GET', '/api/auth/me', { token: admin.access_token });
      const demote = await call('PUT', `/api/auth/users/${me.body.id}`, {
        token: admin.access_token,
        body: { role: 'editor' },
      });
      expect([demote.status, demote.body.code]).to.deep.equal([409, 'conflict']);
      const remove = await call('DELETE', `/api/auth/users/${me.body.id}`, { token: admin.access_token });
      expect(remove.status).to.equal(409);
    });

    it('answers bad input with 4xx JSON', async () => {
      const cases: Array<[unknown, number]> = [
        [{}, 422],
        [{ username: 'x', password: 12 }, 422],
        [{ username: 'bad name', password: 'long-enough-password' }, 422],
        [{ username: 'short', password: 'short' }, 422],
        [{ username: 'x', password: 'p'.repeat(300) }, 422],
      ];
      for (const [body, status] of cases) {
        const res = await call('POST', '/api/auth/users', { token: admin.access_token, body });
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect(res.body.code).to.equal('validation_failed');
      }
      const huge = await call('POST', '/api/auth/users', {
        token: admin.access_token,
        raw: JSON.stringify({ username: 'x', password: 'y'.repeat(1024 * 1024) }),
      });
      expect([huge.status, huge.body.code]).to.deep.equal([413, 'payload_too_large']);
      expect((await call('GET', '/api/auth/users/not-a-uuid', { token: admin.access_token })).status).to.equal(422);
    });
  });

  describe('passwords', () => {
    it('a password change needs the current one and ends older sessions', async () => {
      const admin = await login('root', 'first-admin-password');
      await call('POST', '/api/auth/users', {
        token: admin.access_token,
        body: { username: 'pat', password: 'pat-password-1', email: 'pat@example.com' },
      });
      const pat = await login('pat', 'pat-password-1');
      const wrong = await call('PUT', '/api/auth/password', {
        token: pat.access_token,
        body: { current_password: 'guess-guess-guess', new_password: 'pat-password-2' },
      });
      expect([wrong.status, wrong.body.code]).to.deep.equal([401, 'invalid_credentials']);
      const changed = await call('PUT', '/api/auth/password', {
        token: pat.access_token,
        body: { current_password: 'pat-password-1', new_password: 'pat-password-2' },
      });
      expect(changed.status).to.equal(200);
      expect((await call('GET', '/api/auth/me', { token: pat.access_token })).status).to.equal(401);
      expect((await call('POST', '/api/auth/refresh', { body: { refresh_token: pat.refresh_token } })).status).to.equal(
        401,
      );
      expect((await call('GET', '/api/auth/me', { token: changed.body.access_token })).status).to.equal(200);
    });

    it('reset by email: always 200, the token works once, and it ends older sessions', async () => {
      const before = await login('pat', 'pat-password-2');
      const unknown = await call('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } });
      mailbox.length = 0;
      const known = await call('POST', '/api/auth/forgot-password', { body: { email: 'PAT@example.com' } });
      expect(known.status).to.equal(200);
      expect(known.body).to.deep.equal(unknown.body);
      for (let i = 0; i < 50 && mailbox.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(mailbox).to.have.length(1);
      expect(mailbox[0]?.to).to.equal('pat@example.com');
      const token = /token=([A-Za-z0-9_-]+)/.exec(mailbox[0]?.text ?? '')?.[1] as string;
      expect(mailbox[0]?.text).to.include(`https://docqa.example.com/reset-password?token=${token}`);
      const reset = await call('POST', '/api/auth/reset-password', { body: { token, new_password: 'pat-password-3' } });
      expect(reset.status).to.equal(200);
      const again = await call('POST', '/api/auth/reset-password', { body: { token, new_password: 'pat-password-4' } });
      expect([again.status, again.body.code]).to.deep.equal([422, 'validation_failed']);
      expect((await call('GET', '/api/auth/me', { token: before.access_token })).status).to.equal(401);
      expect(await login('pat', 'pat-password-3')).to.have.property('access_token');
    });

    it('rate limits the reset endpoints past the burst, with Retry-After', async () => {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 8; i++) {
        const res = await call('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } });
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers.get('retry-after');
          expect(res.body.code).to.equal('rate_limited');
        }
      }
      expect(statuses.filter((s) => s === 429).length).to.be.greaterThan(0);
      expect(Number(retryAfter)).to.be.within(1, 60);
      expect(
        (await call('POST', '/api/auth/reset-password', { body: { token: 'x', new_password: 'whatever-long' } }))
          .status,
        'one zone for both',
      ).to.equal(429);
      expect((await call('GET', '/api/version')).status, 'other endpoints are not limited').to.equal(200);
    });
  });

  describe('TOTP', () => {
    const step = () => Math.floor(Date.now() / 30_000);

    it('enrols, signs in with a code, refuses its replay, and accepts a recovery code once', async () => {
      const admin = await login('root', 'first-admin-password');
      await call('POST', '/api/auth/users', {
        token: admin.access_token,
        body: { username: 'tess', password: 'tess-password-1' },
      });
      const tess = await login('tess', 'tess-password-1');
      const setup = await call('POST', '/api/auth/mfa/totp/setup', { token: tess.access_token });
      expect(setup.body.otpauth_uri).to.match(/^otpauth:\/\/totp\/DocQA:tess\?/);
      const secret = setup.body.secret as string;
      // One step for the whole test: a code of `now` and `now + 1` stay valid across a step boundary.
      const now = step();
      const badEnable = await call('POST', '/api/auth/mfa/totp/enable', {
        token: tess.access_token,
        body: { code: '000000' === totpCode(secret, now) ? '111111' : '000000' },
      });
      expect(badEnable.status).to.equal(401);
      const enabled = await call('POST', '/api/auth/mfa/totp/enable', {
        token: tess.access_token,
        body: { code: totpCode(secret, now) },
      });
      expect(enabled.body.recovery_codes).to.have.length(10);

      const first = await login('tess', 'tess-password-1');
      expect(first).to.have.keys('mfa_required', 'mfa_token');
      const replay = await call('POST', '/api/auth/mfa/verify', {
        body: { mfa_token: first.mfa_token, code: totpCode(secret, now) },
      });
      expect([replay.status, replay.body.detail]).to.deep.equal([
        401,
        'This code was already used; wait for the next one.',
      ]);
      const second = await login('tess', 'tess-password-1');
      const verified = await call('POST', '/api/auth/mfa/verify', {
        body: { mfa_token: second.mfa_token, code: totpCode(secret, now + 1) },
      });
      expect(verified.status).to.equal(200);
      expect(verified.body).to.have.property('access_token');
      const ticketAgain = await call('POST', '/api/auth/mfa/verify', {
        body: { mfa_token: second.mfa_token, code: totpCode(secret, now + 1) },
      });
      expect(ticketAgain.status, 'the ticket is single use').to.equal(401);

      const recovery = enabled.body.recovery_codes[0] as string;
      const third = await login('tess', 'tess-password-1');
      expect(
        (await call('POST', '/api/auth/mfa/verify', { body: { mfa_token: third.mfa_token, code: recovery } })).status,
      ).to.equal(200);
      const fourth = await login('tess', 'tess-password-1');
      expect(
        (await call('POST', '/api/auth/mfa/verify', { body: { mfa_token: fourth.mfa_token, code: recovery } })).status,
      ).to.equal(401);

      const disabled = await call('POST', '/api/auth/mfa/totp/disable', {
        token: verified.body.access_token,
        body: { password: 'tess-password-1' },
      });
      expect(disabled.status).to.equal(204);
      expect(await login('tess', 'tess-password-1')).to.have.property('access_token');
    });

    it('counts wrong second-step codes like wrong passwords: 429 past the allowance, before any check', async () => {
      const admin = await login('root', 'first-admin-password');
      await call('POST', '/api/auth/users', {
        token: admin.access_token,
        body: { username: 'tom', password: 'tom-password-1' },
      });
      const tom = await login('tom', 'tom-password-1');
      const secret = (await call('POST', '/api/auth/mfa/totp/setup', { token: tom.access_token })).body
        .secret as string;
      const now = step();
      const enabled = await call('POST', '/api/auth/mfa/totp/enable', {
        token: tom.access_token,
        body: { code: totpCode(secret, now) },
      });
      expect(enabled.status).to.equal(200);
      // A code no step near now answers, so each guess is wrong whatever the clock does meanwhile.
      const near = new Set(Array.from({ length: 7 }, (_, index) => totpCode(secret, now - 3 + index)));
      const wrong = ['000000', '111111', '222222', '333333'].find((candidate) => !near.has(candidate))!;

      // The password is right every time, and each ticket is single use: one sign-in per guess, all
      // before the guesses, so these follow each other faster than the first wait (1 s) runs out.
      const tickets: string[] = [];
      for (let i = 0; i < 9; i++) tickets.push((await login('tom', 'tom-password-1')).mfa_token as string);
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (const ticket of tickets.slice(0, 8)) {
        const guess = await call('POST', '/api/auth/mfa/verify', { body: { mfa_token: ticket, code: wrong } });
        statuses.push(guess.status);
        if (guess.status === 429) {
          retryAfter ??= guess.headers.get('retry-after');
          expect(guess.body.code).to.equal('rate_limited');
        }
      }
      // Five failures are allowed; the sixth starts the wait.
      expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 401, 429, 429]);
      expect(Number(retryAfter)).to.be.within(1, 900);

      // During the wait the right code is refused too, before it is checked; after it, the owner gets in.
      const right = { mfa_token: tickets[8], code: totpCode(secret, now + 1) };
      const early = await call('POST', '/api/auth/mfa/verify', { body: right });
      expect(early.status).to.equal(429);
      await new Promise((resolve) => setTimeout(resolve, Number(early.headers.get('retry-after')) * 1000 + 50));
      const late = await call('POST', '/api/auth/mfa/verify', { body: right });
      expect(late.status, JSON.stringify(late.body)).to.equal(200);
    });
  });

  it('every route of the table enforces its access level with real tokens', async () => {
    const admin = await login('root', 'first-admin-password');
    for (const [username, role] of [
      ['walk-viewer', 'viewer'],
      ['walk-editor', 'editor'],
    ]) {
      await call('POST', '/api/auth/users', {
        token: admin.access_token,
        body: { username, password: 'walk-password-1', role },
      });
    }
    const tokenOf = {
      viewer: (await login('walk-viewer', 'walk-password-1')).access_token,
      editor: (await login('walk-editor', 'walk-password-1')).access_token,
      admin: admin.access_token,
    };
    const rank = { public: -1, required: 0, editor: 1, admin: 2 } as const;
    const roleRank = { viewer: 0, editor: 1, admin: 2 } as const;
    let checked = 0;
    for (const route of routes) {
      if (route.access === 'public') continue;
      // A path with ids that exist nowhere, and an empty body: a caller who passes access gets 4xx from validation or lookup, never 401/403.
      const target = route.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const role of ['viewer', 'editor', 'admin'] as const) {
        if (route.path === '/api/auth/logout-all') continue; // would end the session this walk uses
        const res = await call(route.method.toUpperCase(), target, {
          token: tokenOf[role],
          ...(route.method === 'get' ? {} : { raw: '{}' }),
        });
        const allowed = roleRank[role] >= rank[route.access];
        const label = `${route.method.toUpperCase()} ${route.path} as ${role}`;
        // This server runs without a license (FREE): a plan gate above FREE refuses after the role check.
        if (!allowed) expect([res.status, res.body.code], label).to.deep.equal([403, 'forbidden']);
        else if (route.plan && route.plan !== 'FREE')
          expect([res.status, res.body.code, res.body.required_plan], label).to.deep.equal([
            403,
            'plan_required',
            route.plan,
          ]);
        else expect(res.status, label).to.not.be.oneOf([401, 403]);
        expect(res.status, label).to.be.below(500);
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(20);
  });

  it('throttles failed sign-ins before hashing: 60 wrong passwords, 429 with Retry-After, others unaffected', async () => {
    const created = await call('POST', '/api/auth/users', {
      token: (await login('root', 'first-admin-password')).access_token,
      body: { username: 'target', password: 'target-password-1' },
    });
    expect(created.status).to.equal(201);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 60; i++) {
      const res = await call('POST', '/api/auth/login', { body: { username: 'target', password: `wrong-${i}` } });
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter ??= res.headers.get('retry-after');
        expect(res.body.code).to.equal('rate_limited');
      }
    }
    expect(statuses.slice(0, 5)).to.deep.equal([401, 401, 401, 401, 401]);
    expect(statuses.filter((status) => status === 429).length).to.be.greaterThan(40);
    expect(Number(retryAfter)).to.be.within(1, 900);
    // Another account signs in from the same client, and the right password gets through once the wait is over.
    expect((await login('root', 'first-admin-password')).access_token).to.be.a('string');
    const wait = Number(
      (
        await call('POST', '/api/auth/login', { body: { username: 'target', password: 'target-password-1' } })
      ).headers.get('retry-after') ?? 0,
    );
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 50));
    expect((await login('target', 'target-password-1')).access_token).to.be.a('string');
  });

  it('sign-out everywhere ends every token of the account', async () => {
    const a = await login('root', 'first-admin-password');
    const b = await login('root', 'first-admin-password');
    expect((await call('POST', '/api/auth/logout-all', { token: a.access_token })).status).to.equal(204);
    expect((await call('GET', '/api/auth/me', { token: b.access_token })).status).to.equal(401);
    expect((await call('POST', '/api/auth/refresh', { body: { refresh_token: b.refresh_token } })).status).to.equal(
      401,
    );
  });
});
