import { expect } from 'chai';
import { startSearchServer, type Json, type SearchTestServer } from '../search/search.test-support.js';

describe('audit log (ENTERPRISE): events, queries, append-only, hash chain, retention', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let userId: string;
  const started = new Date();

  const entries = async (query = '') => (await t.call('GET', `/api/audit${query}`, t.admin)).body as { items: Json[]; total: number };
  const sql = (text: string) => t.server.kernel.db.query(text).then(
    () => null,
    (error: Error) => error.message,
  );

  before(async () => {
    t = await startSearchServer({ plan: 'ENTERPRISE', embedder: false });
    await t.uploadTexts({ 'invoices.txt': 'Invoices are archived for ten years in the finance vault.' });
    userId = (await t.call('POST', '/api/auth/users', t.admin, { username: 'carol', password: 'carol-password-1', role: 'viewer' })).body.id;
    const carol = await t.login('carol', 'carol-password-1');
    await t.call('POST', '/api/chat', carol, { query: 'How long are invoices archived?' });
    await t.call('POST', '/api/connectors/sync-all', t.admin);
    await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_LOG_TOKEN_USAGE: true });
    await t.call('DELETE', `/api/auth/users/${userId}`, t.admin);
  });
  after(() => t?.stop());

  it('records the spec\'s events with actor, time, IP, target and outcome; chat queries redacted by default', async () => {
    const { items } = await entries();
    const byType = (type: string) => items.filter((item) => item.type === type);
    const [created] = byType('user.create');
    expect(created).to.deep.include({ target: userId, outcome: 'success' });
    expect(created?.actor.username).to.equal('admin');
    expect(created?.ip).to.be.a('string').and.not.empty;
    expect(new Date(created!.occurred_at).getTime()).to.be.within(started.getTime() - 1000, Date.now());
    expect(byType('user.delete')[0]).to.deep.include({ target: userId, outcome: 'success' });
    const [query] = byType('chat.query');
    expect(query?.actor.username).to.equal('carol');
    expect(query?.details).to.deep.include({ query_redacted: true, query_length: 'How long are invoices archived?'.length, sources: 1 });
    expect(JSON.stringify(query)).to.not.include('archived');
    expect(byType('sync.all')).to.have.lengthOf(1);
    expect(byType('config.update').map((item) => item.target)).to.include('runtime.settings');
  });

  it('filters by event type, user (id or name) and date range, with pagination', async () => {
    const all = await entries();
    expect((await entries('?type=chat.query')).items.every((item) => item.type === 'chat.query')).to.equal(true);
    const byName = await entries('?user=carol');
    expect(byName.items.map((item) => item.type)).to.deep.equal(['chat.query']);
    const adminId = all.items.find((item) => item.type === 'user.create')!.actor.id as string;
    expect((await entries(`?user=${adminId}`)).total).to.equal(all.items.filter((item) => item.actor?.id === adminId).length);
    expect((await entries(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).to.equal(0);
    expect((await entries(`?to=${encodeURIComponent(started.toISOString())}`)).total).to.equal(0);
    const page = await t.call('GET', '/api/audit?limit=2&offset=1', t.admin);
    expect(page.body).to.include({ limit: 2, offset: 1, total: all.total });
    expect(page.body.items.map((item: Json) => item.id)).to.deep.equal(all.items.slice(1, 3).map((item) => item.id));
    expect((await t.call('GET', '/api/audit?from=yesterday', t.admin)).status).to.equal(422);
  });

  it('answers one entry by id, and 404 for an unknown one', async () => {
    const [newest] = (await entries()).items;
    expect((await t.call('GET', `/api/audit/${newest!.id}`, t.admin)).body).to.deep.equal(newest);
    expect((await t.call('GET', '/api/audit/00000000-0000-4000-8000-000000000000', t.admin)).status).to.equal(404);
  });

  it('keeps the retention policy as a runtime setting, recorded as config.update', async () => {
    expect((await t.call('GET', '/api/audit/config', t.admin)).body).to.deep.equal({ retention_days: 365 });
    expect((await t.call('PUT', '/api/audit/config', t.admin, { retention_days: 30 })).body).to.deep.equal({ retention_days: 30 });
    expect((await t.call('GET', '/api/audit/config', t.admin)).body).to.deep.equal({ retention_days: 30 });
    expect((await t.call('PUT', '/api/audit/config', t.admin, { retention_days: 0 })).status).to.equal(422);
    const [latest] = (await entries('?type=config.update')).items;
    expect(latest).to.deep.include({ target: 'audit.retention', details: { retention_days: 30 } });
  });

  it('refuses UPDATE, DELETE and TRUNCATE even in direct SQL', async () => {
    expect(await sql(`update audit_event set outcome = 'failure'`)).to.include('append-only');
    expect(await sql('delete from audit_event')).to.include('append-only');
    expect(await sql('truncate audit_event')).to.include('append-only');
    expect((await entries()).total).to.be.greaterThan(5);
  });

  it('verifies the chain, keeps it across the retention sweep\'s purge, and chains new entries onto the anchor', async () => {
    const before = await t.call('GET', '/api/audit/verify', t.admin);
    expect(before.body).to.deep.include({ valid: true, broken_at: null, anchor: { hash: '0'.repeat(64), after_seq: null } });
    expect(before.body.checked).to.equal((await entries()).total);
    // The sweep's path with a cutoff of now removes everything so far.
    const removed = await t.server.services.audit.purgeOlderThan(0);
    expect(removed).to.equal(before.body.checked);
    await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_LOG_TOKEN_USAGE: false });
    const after = await t.call('GET', '/api/audit/verify', t.admin);
    expect(after.body.valid).to.equal(true);
    expect(after.body.checked).to.equal(1);
    expect(after.body.anchor.after_seq).to.be.a('number');
  });

  it('detects a row changed or removed behind the trigger\'s back', async () => {
    for (const value of [1, 2, 3]) await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_CONVERSATION_MAX_TURNS: 100 + value });
    const { items } = await entries();
    const middle = items[1]!;
    const db = t.server.kernel.db;
    // What someone with the table owner's rights could do: switch the trigger off and edit history.
    await db.query('alter table audit_event disable trigger audit_event_append_only');
    await db.query(`update audit_event set details = '{"changed": {"RAG_CONVERSATION_MAX_TURNS": 7}}' where id = $1`, [middle.id]);
    await db.query('alter table audit_event enable trigger audit_event_append_only');
    const changed = await t.call('GET', '/api/audit/verify', t.admin);
    expect(changed.body.valid).to.equal(false);
    expect(changed.body.broken_at).to.deep.include({ id: middle.id, reason: 'its content does not match its hash (the row was changed)' });

    await db.query('alter table audit_event disable trigger audit_event_append_only');
    await db.query('delete from audit_event where id = $1', [middle.id]);
    await db.query('alter table audit_event enable trigger audit_event_append_only');
    const removed = await t.call('GET', '/api/audit/verify', t.admin);
    expect(removed.body.valid).to.equal(false);
    expect(removed.body.broken_at.id).to.equal(items[0]!.id);
    expect(removed.body.broken_at.reason).to.include('removed');
  });
});
