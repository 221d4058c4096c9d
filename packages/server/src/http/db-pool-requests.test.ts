import { expect } from 'chai';
import pg from 'pg';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

/**
 * DB_POOL_SIZE + DB_MAX_OVERFLOW bound the connections a server opens under concurrent HTTP
 * requests, seen from PostgreSQL (pg_stat_activity); every request is still answered. PostgreSQL
 * server only: the embedded database is one connection whatever the variables say
 * (kernel/src/db/pool-settings.test.ts).
 */
describe('database pool under concurrent requests', function () {
  this.timeout(180_000);
  let t: SearchTestServer;
  let observer: pg.Client;

  before(async function () {
    if (!process.env.TEST_DATABASE_URL) this.skip();
    t = await startSearchServer({
      plan: 'ENTERPRISE',
      embedder: false,
      env: { DB_POOL_SIZE: '1', DB_MAX_OVERFLOW: '1' },
    });
    observer = new pg.Client({ connectionString: t.server.kernel.connection.url!, application_name: 'pool-observer' });
    await observer.connect();
    await t.uploadTexts({ 'handbook.txt': 'Every employee gets twenty-five days of paid holiday a year.' });
  });
  after(async () => {
    await observer?.end();
    await t?.stop();
  });

  it('opens at most DB_POOL_SIZE + DB_MAX_OVERFLOW connections for 60 concurrent requests', async () => {
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await observer.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity
            where datname = current_database() and application_name = 'docqa'`,
        );
        peak = Math.max(peak, Number(rows[0]?.n));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? t.call('GET', '/api/docs', t.admin).then((res) => res.status)
          : t.call('POST', '/api/search', t.admin, { query: 'paid holiday' }).then((res) => res.status),
      ),
    );
    sampling = false;
    await sampler;
    expect(statuses.filter((status) => status !== 200)).to.deep.equal([]);
    expect(peak).to.be.within(1, 2);
  });
});
