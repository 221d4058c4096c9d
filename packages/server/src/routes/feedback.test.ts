import { expect } from 'chai';
import type { Plan } from '@docqa/plugin-api';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

describe('answer feedback: PUT …/turns/{index}/feedback and GET /api/analytics/feedback', function () {
  this.timeout(120_000);
  let plan: Plan = 'PRO';
  let t: SearchTestServer;
  let alice: string;
  let bob: string;
  let conversation: string;
  const feedback = (index: number) => `/api/conversations/${conversation}/turns/${index}/feedback`;

  before(async () => {
    t = await startSearchServer({ plan: () => plan, embedder: false });
    await t.uploadTexts({
      'invoices.txt': 'Invoice retention policy.\n\nInvoices are archived for ten years in the finance vault.',
    });
    for (const name of ['alice', 'bob']) {
      const user = { username: name, password: `${name}-password-1`, role: 'viewer' };
      expect((await t.call('POST', '/api/auth/users', t.admin, user)).status).to.equal(201);
    }
    alice = await t.login('alice', 'alice-password-1');
    bob = await t.login('bob', 'bob-password-1');
    const first = await t.call('POST', '/api/chat', alice, { query: 'How long are invoices archived?' });
    conversation = first.body.conversation_id as string;
    const second = { query: 'Where are invoices archived?', conversation_id: conversation };
    expect((await t.call('POST', '/api/chat', alice, second)).status).to.equal(200);
  });
  after(() => t?.stop());

  it("stores the owner's rating with the turn; the conversation shows it, and null clears it", async () => {
    const down = await t.call('PUT', feedback(1), alice, { rating: 'down', comment: 'It names no vault.' });
    expect(down.status).to.equal(200);
    expect(down.body.feedback).to.include({ rating: 'down', comment: 'It names no vault.' });
    expect((await t.call('PUT', feedback(0), alice, { rating: 'up' })).body.feedback).to.include({ rating: 'up' });
    const shown = await t.call('GET', `/api/conversations/${conversation}`, alice);
    expect((shown.body.turns as Json[]).map((turn) => turn.feedback?.rating)).to.deep.equal(['up', 'down']);
    expect((await t.call('PUT', feedback(0), alice, { rating: null })).body).to.deep.equal({ feedback: null });
    const cleared = await t.call('GET', `/api/conversations/${conversation}`, alice);
    expect((cleared.body.turns as Json[]).map((turn) => turn.feedback?.rating ?? null)).to.deep.equal([null, 'down']);
  });

  it('answers 401 without a token, 404 for another user and an unknown turn, 422 for a bad body', async () => {
    expect((await t.call('PUT', feedback(0), null, { rating: 'up' })).status).to.equal(401);
    const other = await t.call('PUT', feedback(0), bob, { rating: 'up' });
    expect([other.status, other.body.code]).to.deep.equal([404, 'not_found']);
    expect((await t.call('PUT', feedback(2), alice, { rating: 'up' })).status).to.equal(404);
    for (const body of [{ rating: 'sideways' }, { rating: 'up', comment: 'x'.repeat(2001) }, {}]) {
      const refused = await t.call('PUT', feedback(0), alice, body);
      expect([refused.status, refused.body.code], JSON.stringify(body).slice(0, 40)).to.deep.equal([
        422,
        'validation_failed',
      ]);
    }
    expect((await t.call('PUT', `/api/conversations/${conversation}/turns/-1/feedback`, alice, {})).status).to.equal(
      422,
    );
  });

  it('reports the counts and the latest down-rated answers to admins, on PRO, and to nobody else', async () => {
    const viewer = await t.call('GET', '/api/analytics/feedback?days=0', alice);
    expect([viewer.status, viewer.body.code]).to.deep.equal([403, 'forbidden']);
    plan = 'FREE';
    const free = await t.call('GET', '/api/analytics/feedback?days=0', t.admin);
    plan = 'PRO';
    expect([free.status, free.body.code]).to.deep.equal([403, 'plan_required']);
    expect((await t.call('GET', '/api/analytics/feedback?days=0', t.admin)).status).to.equal(422);
    const report = await t.call('GET', '/api/analytics/feedback?period=week&days=14', t.admin);
    expect(report.status).to.equal(200);
    expect(report.body.totals).to.deep.equal({ up: 0, down: 1 });
    expect(report.body.periods.length).to.be.within(2, 4);
    const [latest] = report.body.latest_down as Json[];
    expect(latest).to.include({
      conversation_id: conversation,
      turn_index: 1,
      query: 'Where are invoices archived?',
      comment: 'It names no vault.',
    });
    expect(latest?.answer_excerpt).to.include('finance vault');
    expect(latest?.sources[0]).to.include({ index: 1, title: 'invoices.txt', path: 'invoices.txt' });
  });
});
