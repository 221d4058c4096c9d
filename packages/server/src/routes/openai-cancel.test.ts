import { expect } from 'chai';
import pg from 'pg';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

/**
 * The OpenAI-compatible chat route cancels its running statement when its client goes away, as
 * search and chat do (docs/security.md, "Statements that outlast their request"). The statement is
 * made to wait: a transaction of the test holds the chunk table locked, so retrieval's statement
 * waits on the lock until it is cancelled, or the lock is let go.
 */
describe('OpenAI-compatible chat: cancelled when its client goes away (PostgreSQL server)', function () {
  this.timeout(120_000);
  let t: SearchTestServer;
  let url: string;

  before(async function () {
    if (!process.env.TEST_DATABASE_URL) this.skip();
    // No statement timeout: only the cancel may stop the waiting statement.
    t = await startSearchServer({ plan: 'PRO', embedder: false, env: { REQUEST_STATEMENT_TIMEOUT_SECONDS: '0' } });
    await t.uploadTexts({ 'invoices.txt': 'Invoice retention.\n\nInvoices are archived for ten years in the vault.' });
    url = t.server.kernel.connection.url as string;
  });
  after(async () => {
    await t?.stop();
  });

  /** Statements of the server's database waiting on a lock: the ones our lock holds up. */
  async function waiting(client: pg.Client): Promise<number> {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`Never happened: ${what}`);
  }

  for (const stream of [false, true]) {
    it(`stops the statement of a ${stream ? 'stream' : 'JSON'} completion whose client left`, async () => {
      const locker = new pg.Client({ connectionString: url });
      const observer = new pg.Client({ connectionString: url });
      await Promise.all([locker.connect(), observer.connect()]);
      try {
        await locker.query('begin');
        await locker.query('lock table chunk in access exclusive mode');
        const controller = new AbortController();
        const answer = fetch(`${t.server.url}/api/openai/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${t.admin}` },
          body: JSON.stringify({
            model: 'docqa',
            stream,
            messages: [{ role: 'user', content: 'How long are invoices archived?' }],
          }),
          signal: controller.signal,
        });
        if (stream) {
          // The stream is under way (its headers are out) when its client leaves.
          const res = await answer;
          expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
        }
        await eventually(async () => (await waiting(observer)) > 0, 'the completion waits on the lock');
        controller.abort();
        await answer.then((res) => res.text()).catch(() => undefined);
        // The lock is still held: only a cancel ends the wait.
        await eventually(async () => (await waiting(observer)) === 0, 'the waiting statement was cancelled');
      } finally {
        await locker.query('rollback').catch(() => undefined);
        await Promise.all([locker.end(), observer.end()]);
      }
      // And the server still answers.
      const res = await t.call('POST', '/api/openai/v1/chat/completions', t.admin, {
        model: 'docqa',
        messages: [{ role: 'user', content: 'How long are invoices archived?' }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });
  }
});
