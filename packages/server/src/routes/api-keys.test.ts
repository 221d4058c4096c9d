import { expect } from 'chai';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

describe('personal API keys (through HTTP, ENTERPRISE)', function () {
  let t: SearchTestServer;
  let ids: Record<string, string>;
  let finance: string;
  const users: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const createKey = async (token: string, body: Json) => {
    const res = await t.call('POST', '/api/auth/api-keys', token, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  };
  const upload = async (token: string) => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('Uploaded with a key.')]), 'by-key.txt');
    const headers = { authorization: `Bearer ${token}` };
    const res = await fetch(`${t.server.url}/api/docs/upload`, { method: 'POST', body: form, headers });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const documentIds = (body: Json) => (body.items as Json[]).map((item) => item.document_id as string);
  const status = async (method: string, route: string, token: string | null, body?: unknown) =>
    (await t.call(method, route, token, body)).status;

  before(async () => {
    const env = { API_KEY_RATE_LIMIT: '1r/s', API_KEY_RATE_LIMIT_BURST: '25' };
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: false, env });
    ids = await t.uploadTexts({
      'merger.txt': 'Confidential merger plan: the acquisition of Zephyr Corporation closes in March.',
      'handbook.txt': 'Employee handbook: holidays, expenses and the travel policy for every employee.',
    });
    finance = (await t.call('POST', '/api/groups', t.admin, { name: 'Finance' })).body.id as string;
    const people = [
      ['vera', 'viewer'],
      ['eddie', 'editor'],
      ['fiona', 'editor'],
      ['dora', 'viewer'],
    ] as const;
    for (const [name, role] of people) {
      const fields = { username: name, password: `${name}-password-1`, role, email: `${name}@example.com` };
      const user = await t.call('POST', '/api/auth/users', t.admin, fields);
      expect(user.status).to.equal(201);
      users[name] = user.body.id as string;
      tokens[name] = await t.login(name, `${name}-password-1`);
    }
    expect((await t.call('PUT', `/api/groups/${finance}/members/${users.fiona}`, t.admin)).status).to.equal(204);
    const grant = { group_ids: [finance] };
    expect(await status('PUT', `/api/access/document/${ids['merger.txt']}`, t.admin, grant)).to.equal(200);
  });
  after(() => t?.stop());

  it('creates a key shown once with its prefix, lists it without the secret; the key works as a bearer', async () => {
    const created = await createKey(tokens.eddie!, { name: 'ci', scopes: ['read', 'write'], expires_in_days: 30 });
    expect(created.key).to.match(/^docqa_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).to.equal(true);
    expect(created).to.include({ name: 'ci', user_id: users.eddie, last_used_at: null });
    expect(created.scopes).to.deep.equal(['read', 'write']);
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).to.be.closeTo(30 * 86_400_000, 5000);
    const stored = await t.server.kernel.db.query<Json>('select * from api_key where id = $1', [created.id]);
    expect(JSON.stringify(stored.rows)).to.not.include(created.key.slice(6));

    const me = await t.call('GET', '/api/auth/me', created.key);
    expect(me.body).to.include({ username: 'eddie', role: 'editor' });
    const listed = await t.call('GET', '/api/auth/api-keys', tokens.eddie!);
    expect(listed.body.items).to.have.length(1);
    expect(listed.body.items[0]).to.include({ id: created.id, prefix: created.prefix }).and.not.have.property('key');
    expect(listed.body.items[0].last_used_at).to.be.a('string');
    expect(JSON.stringify(listed.body)).to.not.include(created.key);
  });

  it('scopes narrow a key: a read key searches but cannot upload; without a scope it gets 403', async () => {
    const read = await createKey(tokens.eddie!, { name: 'read only' });
    expect(read.scopes, 'the default').to.deep.equal(['read']);
    expect((await t.call('POST', '/api/search', read.key, { query: 'travel policy' })).status).to.equal(200);
    expect((await t.call('GET', '/api/docs', read.key)).status).to.equal(200);
    const refused = await upload(read.key);
    expect([refused.status, refused.body.code, refused.body.required_scope]).to.deep.equal([403, 'forbidden', 'write']);
    const write = await createKey(tokens.eddie!, { name: 'uploader', scopes: ['write'] });
    expect((await upload(write.key)).status).to.equal(202);
    expect((await t.call('GET', '/api/docs', write.key)).status, 'listing needs read').to.equal(403);
  });

  it("a viewer's key cannot upload (403), and a viewer cannot give a key more than read", async () => {
    const key = await createKey(tokens.vera!, { name: 'viewer key' });
    const refused = await upload(key.key);
    expect([refused.status, refused.body.code]).to.deep.equal([403, 'forbidden']);
    const greedy = { name: 'greedy', scopes: ['read', 'write'] };
    const beyond = await t.call('POST', '/api/auth/api-keys', tokens.vera!, greedy);
    expect([beyond.status, beyond.body.code]).to.deep.equal([422, 'validation_failed']);
  });

  it('a read-scoped admin key cannot create users (403); an admin-scoped one can', async () => {
    const read = await createKey(t.admin, { name: 'admin read', scopes: ['read'] });
    const body = { username: 'created-by-key', password: 'created-password-1' };
    const refused = await t.call('POST', '/api/auth/users', read.key, body);
    expect([refused.status, refused.body.code]).to.deep.equal([403, 'forbidden']);
    const admin = await createKey(t.admin, { name: 'admin all', scopes: ['admin'] });
    expect((await t.call('POST', '/api/auth/users', admin.key, body)).status).to.equal(201);
  });

  it('a key cannot manage keys, passwords or MFA: those need a signed-in session', async () => {
    const key = await createKey(t.admin, { name: 'everything', scopes: ['read', 'write', 'admin'] });
    for (const [method, route, body] of [
      ['POST', '/api/auth/api-keys', { name: 'minted' }],
      ['GET', '/api/auth/api-keys', undefined],
      ['DELETE', `/api/auth/api-keys/${key.id as string}`, undefined],
      ['GET', `/api/auth/users/${users.vera}/api-keys`, undefined],
      ['PUT', '/api/auth/password', { current_password: 'admin-password-1', new_password: 'another-password-1' }],
      ['POST', '/api/auth/mfa/totp/setup', undefined],
      ['POST', '/api/auth/logout-all', undefined],
    ] as const) {
      expect((await t.call(method, route, key.key, body)).status, `${method} ${route}`).to.equal(403);
    }
  });

  it('a revoked key gets 401 at once; an unknown or expired one too', async () => {
    const key = await createKey(tokens.eddie!, { name: 'short-lived' });
    expect((await t.call('GET', '/api/docs', key.key)).status).to.equal(200);
    expect((await t.call('DELETE', `/api/auth/api-keys/${key.id as string}`, tokens.eddie!)).status).to.equal(204);
    const refused = await t.call('GET', '/api/docs', key.key);
    expect([refused.status, refused.body.code]).to.deep.equal([401, 'unauthorized']);
    expect(refused.body.detail).to.equal('This API key was revoked.');
    const listed = (await t.call('GET', '/api/auth/api-keys', tokens.eddie!)).body.items as Json[];
    expect(listed.map((item) => item.id)).to.not.include(key.id);
    expect(await status('DELETE', `/api/auth/api-keys/${key.id as string}`, tokens.eddie!), 'twice').to.equal(404);
    expect((await t.call('GET', '/api/docs', `docqa_${'x'.repeat(43)}`)).status).to.equal(401);
    const expiring = await createKey(tokens.eddie!, { name: 'expired', expires_in_days: 1 });
    const expire = "update api_key set expires_at = now() - interval '1 second' where id = $1";
    await t.server.kernel.db.query(expire, [expiring.id]);
    expect((await t.call('GET', '/api/docs', expiring.key)).status).to.equal(401);
  });

  it("an admin lists and revokes another user's keys; another user cannot", async () => {
    const key = await createKey(tokens.dora!, { name: 'dora script' });
    const listed = await t.call('GET', `/api/auth/users/${users.dora}/api-keys`, t.admin);
    expect(listed.body.items.map((item: Json) => item.id)).to.deep.equal([key.id]);
    expect((await t.call('GET', `/api/auth/users/${users.dora}/api-keys`, tokens.eddie!)).status).to.equal(403);
    const notTheirs = await status('DELETE', `/api/auth/api-keys/${key.id as string}`, tokens.eddie!);
    expect(notTheirs, "not eddie's key").to.equal(404);
    expect(await status('DELETE', `/api/auth/users/${users.dora}/api-keys/${key.id as string}`, t.admin)).to.equal(204);
    expect((await t.call('GET', '/api/docs', key.key)).status).to.equal(401);
    const audit = await t.call('GET', '/api/audit?limit=500', t.admin);
    const entries = (audit.body.items as Json[]).filter((entry) => entry.target === key.id);
    const events = entries.map((entry) => [entry.type, entry.actor?.username]);
    expect(events).to.have.deep.members([
      ['api_key.create', 'dora'],
      ['api_key.revoke', 'admin'],
    ]);
  });

  it("acts at the user's current role: a demoted editor's write key can no longer upload", async () => {
    const key = await createKey(tokens.fiona!, { name: 'fiona writes', scopes: ['read', 'write'] });
    expect((await upload(key.key)).status).to.equal(202);
    expect((await t.call('PUT', `/api/auth/users/${users.fiona}`, t.admin, { role: 'viewer' })).status).to.equal(200);
    expect((await upload(key.key)).status).to.equal(403);
    expect((await t.call('GET', '/api/docs', key.key)).status, 'reading still works').to.equal(200);
    await t.call('PUT', `/api/auth/users/${users.fiona}`, t.admin, { role: 'editor' });
  });

  it("a key never reaches documents its user's groups do not grant, through search and chat", async () => {
    const outsider = await createKey(tokens.eddie!, { name: 'outsider' });
    const member = await createKey(await t.login('fiona', 'fiona-password-1'), { name: 'member' });
    const query = { query: 'Zephyr merger acquisition', top_k: 10 };
    expect(documentIds((await t.call('POST', '/api/search', member.key, query)).body)).to.include(ids['merger.txt']);
    const forOutsider = await t.call('POST', '/api/search', outsider.key, query);
    expect(documentIds(forOutsider.body)).to.not.include(ids['merger.txt']);
    const chat = await t.call('POST', '/api/chat', outsider.key, { query: 'When does the Zephyr acquisition close?' });
    expect(chat.status).to.equal(200);
    expect((chat.body.sources as Json[]).map((source) => source.document_id)).to.not.include(ids['merger.txt']);
    expect(chat.body.answer).to.not.include('March');
    const byId = await t.call('GET', `/api/docs/${ids['merger.txt']}`, outsider.key);
    expect(byId.status).to.equal(404);
  });

  it("a password reset, a password change or the user's deletion ends the keys at once", async () => {
    const beforeReset = await createKey(tokens.dora!, { name: 'before reset' });
    // A reset token as forgot-password stores it (its hash), without going through an email.
    const token = 'a-known-reset-token-for-the-test';
    const { createHash } = await import('node:crypto');
    await t.server.kernel.db.query(
      "insert into password_reset_token (token_hash, user_id, expires_at) values ($1, $2, now() + interval '10 min')",
      [createHash('sha256').update(token).digest('hex'), users.dora],
    );
    const reset = { token, new_password: 'dora-password-2' };
    expect(await status('POST', '/api/auth/reset-password', null, reset)).to.equal(200);
    expect((await t.call('GET', '/api/docs', beforeReset.key)).status).to.equal(401);

    const dora = await t.login('dora', 'dora-password-2');
    const beforeChange = await createKey(dora, { name: 'before change' });
    const change = { current_password: 'dora-password-2', new_password: 'dora-password-3' };
    expect(await status('PUT', '/api/auth/password', dora, change)).to.equal(200);
    expect((await t.call('GET', '/api/docs', beforeChange.key)).status).to.equal(401);

    const vera = await createKey(tokens.vera!, { name: 'vera to be deleted' });
    expect((await t.call('GET', '/api/docs', vera.key)).status).to.equal(200);
    expect((await t.call('DELETE', `/api/auth/users/${users.vera}`, t.admin)).status).to.equal(204);
    expect((await t.call('GET', '/api/docs', vera.key)).status).to.equal(401);
  });

  it('limits each key on its own (API_KEY_RATE_LIMIT): past the burst, 429 with Retry-After', async () => {
    const busy = await createKey(tokens.eddie!, { name: 'busy' });
    const calm = await createKey(tokens.eddie!, { name: 'calm' });
    const headers = { authorization: `Bearer ${busy.key as string}` };
    const me = () => fetch(`${t.server.url}/api/auth/me`, { headers });
    const answers = await Promise.all(Array.from({ length: 30 }, me));
    const limited = answers.filter((res) => res.status === 429);
    expect(limited.length).to.be.within(3, 5);
    expect(Number(limited[0]!.headers.get('retry-after'))).to.be.at.least(1);
    expect(((await limited[0]!.json()) as Json).code).to.equal('rate_limited');
    expect((await t.call('GET', '/api/auth/me', calm.key)).status, 'another key is not limited').to.equal(200);
    expect((await t.call('GET', '/api/auth/me', tokens.eddie!)).status, "nor the user's session").to.equal(200);
  });
});
