import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import connectorTemplate from '@docqa/example-connector-template';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';
import { auditTokens, chainHash, genesisHash } from '@docqa/core/audit';

const seededOld = 3;

describe('audit log (ENTERPRISE): events, queries, append-only, hash chain, retention', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let userId: string;
  const started = new Date();
  const connectorRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-audit-connector-')));

  const entries = async (query = '') =>
    (await t.call('GET', `/api/audit${query}`, t.admin)).body as { items: Json[]; total: number };
  const sql = (text: string) =>
    t.server.kernel.db.query(text).then(
      () => null,
      (error: Error) => error.message,
    );

  before(async () => {
    // FREE while the old entries are written: the log keeps nothing then (not even the default
    // admin's creation), so they are the first entries of the chain.
    let plan: 'FREE' | 'ENTERPRISE' = 'FREE';
    t = await startSearchServer({
      plan: () => plan,
      embedder: false,
      plugins: [{ plugin: connectorTemplate }],
      // The directory a filesystem connector of the source-changes test may read.
      env: { CONNECTOR_ALLOWED_PATHS: connectorRoot },
    });
    expect(
      Number((await t.server.kernel.db.query<{ n: string }>('select count(*) as n from audit_event')).rows[0]?.n),
    ).to.equal(0);
    // Entries from before the retention period (400 days ago) at the start of the chain, written as
    // the store writes them: only such entries may ever be purged.
    let prevHash = genesisHash;
    for (let i = 0; i < seededOld; i++) {
      const fields = {
        id: crypto.randomUUID(),
        occurredAt: new Date(Date.now() - (400 - i) * 86_400_000).toISOString(),
        type: 'config.update',
        actorId: null,
        actorUsername: null,
        ip: null,
        target: 'seeded',
        outcome: 'success',
        details: {},
      };
      const hash = chainHash(prevHash, fields);
      await t.server.kernel.db.query(
        `insert into audit_event (id, occurred_at, type, actor_id, actor_username, ip, target, outcome, details, prev_hash, hash) values ($1, $2, $3, null, null, null, $4, $5, '{}', $6, $7)`,
        [fields.id, fields.occurredAt, fields.type, fields.target, fields.outcome, prevHash, hash],
      );
      prevHash = hash;
    }
    plan = 'ENTERPRISE';
    await t.uploadTexts({ 'invoices.txt': 'Invoices are archived for ten years in the finance vault.' });
    userId = (
      await t.call('POST', '/api/auth/users', t.admin, {
        username: 'carol',
        password: 'carol-password-1',
        role: 'viewer',
      })
    ).body.id;
    const carol = await t.login('carol', 'carol-password-1');
    await t.call('POST', '/api/chat', carol, { query: 'How long are invoices archived?' });
    await t.call('POST', '/api/connectors/sync-all', t.admin);
    await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_LOG_TOKEN_USAGE: true });
    await t.call('DELETE', `/api/auth/users/${userId}`, t.admin);
  });
  after(async () => {
    await t?.stop();
    fs.rmSync(connectorRoot, { recursive: true, force: true });
  });

  it("records the spec's events with actor, time, IP, target and outcome; chat queries redacted by default", async () => {
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
    expect(query?.details).to.deep.include({
      query_redacted: true,
      query_length: 'How long are invoices archived?'.length,
      sources: 1,
    });
    expect(JSON.stringify(query)).to.not.include('archived');
    expect(byType('sync.all')).to.have.lengthOf(1);
    expect(byType('config.update').map((item) => item.target)).to.include('runtime.settings');
  });

  it('records every change of sources, rules, schedules, roles and passwords', async () => {
    const feed = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-audit-feed-')), 'feed.jsonl');
    fs.writeFileSync(feed, '');
    const source = (
      await t.call('POST', '/api/integrations', t.admin, {
        name: 'Audited feed',
        type: 'json-feed',
        config: { path: feed },
      })
    ).body;
    await t.call('PUT', `/api/integrations/${source.id}`, t.admin, {
      name: 'Audited feed 2',
      type: 'json-feed',
      config: { path: feed },
    });
    const rule = (
      await t.call('POST', `/api/metadata/${source.id}/rules`, t.admin, {
        field_name: 'dept',
        pattern: 'Dept: (\\w+)',
        scope: 'full',
        level: 'document',
      })
    ).body;
    await t.call('DELETE', `/api/metadata/${source.id}/rules/${rule.id}`, t.admin);
    const schedule = (
      await t.call('POST', '/api/schedules', t.admin, {
        source_type: 'integration',
        source_id: source.id,
        cron: '0 3 * * *',
      })
    ).body;
    await t.call('DELETE', `/api/schedules/${schedule.id}`, t.admin);
    expect((await t.call('DELETE', `/api/integrations/${source.id}`, t.admin)).status).to.equal(204);
    // Connectors go through the same routes as integrations, under their own kind.
    const connector = await t.call('POST', '/api/connectors', t.admin, {
      name: 'Audited connector',
      type: 'filesystem',
      config: { path: connectorRoot },
    });
    expect(connector.status, JSON.stringify(connector.body)).to.equal(201);
    const connectorUpdate = await t.call('PUT', `/api/connectors/${connector.body.id}`, t.admin, {
      name: 'Audited connector 2',
      type: 'filesystem',
      config: { path: connectorRoot },
    });
    expect(connectorUpdate.status, JSON.stringify(connectorUpdate.body)).to.equal(200);
    expect((await t.call('DELETE', `/api/connectors/${connector.body.id}`, t.admin)).status).to.equal(204);
    const dave = (await t.call('POST', '/api/auth/users', t.admin, { username: 'dave', password: 'dave-password-1' }))
      .body;
    await t.call('PUT', `/api/auth/users/${dave.id}`, t.admin, { role: 'editor' });
    const daveToken = await t.login('dave', 'dave-password-1');
    expect(
      (
        await t.call('PUT', '/api/auth/password', daveToken, {
          current_password: 'dave-password-1',
          new_password: 'dave-password-2',
        })
      ).status,
    ).to.equal(200);

    const changes = (await entries('?type=config.update&limit=100')).items.map((item) =>
      `${item.target} ${item.details.action ?? ''}`.trim(),
    );
    for (const change of [
      'integration create',
      'integration update',
      'integration delete',
      'connector create',
      'connector update',
      'connector delete',
      'metadata.rule create',
      'metadata.rule delete',
      'schedule create',
      'schedule delete',
    ])
      expect(changes).to.include(change);
    const userUpdates = (await entries('?type=user.update')).items
      .filter((item) => item.target === dave.id)
      .map((item) => item.details);
    expect(userUpdates).to.deep.include.members([{ role: 'editor' }, { password_changed: true }]);
  });

  it('filters by event type, user (id or name) and date range, with pagination', async () => {
    const all = await entries();
    expect((await entries('?type=chat.query')).items.every((item) => item.type === 'chat.query')).to.equal(true);
    const byName = await entries('?user=carol');
    expect(byName.items.map((item) => item.type)).to.deep.equal(['chat.query']);
    const adminId = all.items.find((item) => item.type === 'user.create')!.actor.id as string;
    expect((await entries(`?user=${adminId}`)).total).to.equal(
      all.items.filter((item) => item.actor?.id === adminId).length,
    );
    expect((await entries(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).to.equal(
      0,
    );
    expect((await entries(`?to=${encodeURIComponent(started.toISOString())}`)).total).to.equal(seededOld);
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
    expect((await t.call('PUT', '/api/audit/config', t.admin, { retention_days: 30 })).body).to.deep.equal({
      retention_days: 30,
    });
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

  it("verifies the chain, keeps it across the retention sweep's purge, and chains new entries onto the anchor", async () => {
    const before = await t.call('GET', '/api/audit/verify', t.admin);
    expect(before.body).to.deep.include({
      valid: true,
      broken_at: null,
      anchor: { hash: '0'.repeat(64), after_seq: null },
    });
    expect(before.body.checked).to.equal((await entries()).total);
    // The sweep's path, even with a cutoff of now, removes only what is older than the retention period.
    const removed = await t.server.kernel.resolve(auditTokens.log).purgeOlderThan(0);
    expect(removed).to.equal(seededOld);
    await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_LOG_TOKEN_USAGE: false });
    const after = await t.call('GET', '/api/audit/verify', t.admin);
    expect(after.body.valid).to.equal(true);
    expect(after.body.checked).to.equal(before.body.checked - seededOld + 1);
    expect(after.body.anchor.after_seq).to.be.a('number');
  });

  it("refuses what DocQA's own role tried: the purge switch, a purge of recent entries, a forged anchor; a removed tail is seen", async () => {
    const db = t.server.kernel.db;
    const newest = (await entries()).items[0]!;
    const total = (await entries()).total;
    const forged = await db
      .transaction(async (tx) => {
        await tx.query("select set_config('docqa.audit_purge', 'on', true)");
        await tx.query('delete from audit_event where id = $1', [newest.id]);
      })
      .then(
        () => 'deleted',
        (error: Error) => error.message,
      );
    expect(forged).to.match(/append-only/);
    expect(
      Number(
        (await db.query<{ removed: string }>("select audit_purge(now() + interval '1 day') as removed")).rows[0]
          ?.removed,
      ),
    ).to.equal(0);
    expect(
      await sql(`update audit_anchor set last_purged_seq = ${newest.seq}, last_purged_hash = '${'f'.repeat(64)}'`),
    ).to.match(/older than the retention period/);
    expect(await sql('update audit_head set head_seq = 1')).to.match(/kept by the audit log itself/);
    expect((await entries()).total).to.equal(total);
    expect((await t.call('GET', '/api/audit/verify', t.admin)).body.valid).to.equal(true);

    // Past the database's own guard (the owner switching the trigger off), the newest entries go:
    // the chain left is whole, and the head still says where it must end.
    await db.query('alter table audit_event disable trigger audit_event_append_only');
    await db.query('delete from audit_event where id = $1', [newest.id]);
    await db.query('alter table audit_event enable trigger audit_event_append_only');
    const verified = (await t.call('GET', '/api/audit/verify', t.admin)).body;
    expect(verified.valid).to.equal(false);
    expect(verified.broken_at).to.deep.include({ id: null, seq: newest.seq });
    expect(verified.broken_at.reason).to.include('newest entries');
  });

  it("detects a row changed or removed behind the trigger's back", async () => {
    for (const value of [1, 2, 3])
      await t.call('PATCH', '/api/admin/settings', t.admin, { RAG_CONVERSATION_MAX_TURNS: 100 + value });
    const { items } = await entries();
    const middle = items[1]!;
    const db = t.server.kernel.db;
    // What someone with the table owner's rights could do: switch the trigger off and edit history.
    await db.query('alter table audit_event disable trigger audit_event_append_only');
    await db.query(`update audit_event set details = '{"changed": {"RAG_CONVERSATION_MAX_TURNS": 7}}' where id = $1`, [
      middle.id,
    ]);
    await db.query('alter table audit_event enable trigger audit_event_append_only');
    const changed = await t.call('GET', '/api/audit/verify', t.admin);
    expect(changed.body.valid).to.equal(false);
    expect(changed.body.broken_at).to.deep.include({
      id: middle.id,
      reason: 'its content does not match its hash (the row was changed)',
    });

    await db.query('alter table audit_event disable trigger audit_event_append_only');
    await db.query('delete from audit_event where id = $1', [middle.id]);
    await db.query('alter table audit_event enable trigger audit_event_append_only');
    const removed = await t.call('GET', '/api/audit/verify', t.admin);
    expect(removed.body.valid).to.equal(false);
    expect(removed.body.broken_at.id).to.equal(items[0]!.id);
    expect(removed.body.broken_at.reason).to.include('removed');
  });
});
