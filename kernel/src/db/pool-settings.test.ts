import { expect } from 'chai';
import pg from 'pg';
import { DocqaError } from '@docqa/plugin-api';
import { startTestKernel, type TestKernel } from '../testing/test-kernel.js';

/**
 * DB_POOL_SIZE, DB_MAX_OVERFLOW, DB_POOL_TIMEOUT and DB_POOL_RECYCLE on a PostgreSQL server, seen
 * from the server's side (pg_stat_activity): the application's pool never opens more than
 * DB_POOL_SIZE + DB_MAX_OVERFLOW connections however many statements wait, a statement that waits
 * longer than DB_POOL_TIMEOUT for one fails, and a connection older than DB_POOL_RECYCLE is replaced.
 * The embedded database is one connection whatever they say (docs/configuration.md): checked too.
 */
describe('database pool settings', function () {
  this.timeout(120_000);

  describe('on a PostgreSQL server', function () {
    let kernel: TestKernel;
    let observer: pg.Client;

    before(async function () {
      if (!process.env.TEST_DATABASE_URL) this.skip();
      kernel = await startTestKernel({
        env: { DB_POOL_SIZE: '2', DB_MAX_OVERFLOW: '1', DB_POOL_TIMEOUT: '1', DB_POOL_RECYCLE: '2' },
      });
      observer = new pg.Client({ connectionString: kernel.connection.url!, application_name: 'pool-observer' });
      await observer.connect();
    });
    after(async () => {
      await observer?.end();
      await kernel?.dispose();
    });

    /** Connections of the application's pool (pg-boss has its own, named docqa-jobs). */
    const openConnections = async () =>
      Number(
        (
          await observer.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity
              where datname = current_database() and application_name = 'docqa'`,
          )
        ).rows[0]?.n,
      );

    it('opens at most DB_POOL_SIZE + DB_MAX_OVERFLOW connections under 12 concurrent statements', async () => {
      let peak = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await openConnections());
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const started = Date.now();
      // Each holds its connection for 0.3 s: 12 of them through 3 connections take 4 rounds.
      await Promise.all(Array.from({ length: 12 }, () => kernel.db.query('select pg_sleep(0.3)')));
      const elapsed = Date.now() - started;
      sampling = false;
      await sampler;
      expect(peak).to.equal(3);
      expect(elapsed).to.be.at.least(4 * 300 - 50);
    });

    it('fails a statement that waits longer than DB_POOL_TIMEOUT for a connection', async () => {
      const holders = Promise.all(Array.from({ length: 3 }, () => kernel.db.query('select pg_sleep(2.5)')));
      try {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const started = Date.now();
        const waited = await kernel.db.query('select 1').then(
          () => null,
          (error: unknown) => error as DocqaError,
        );
        // Answered as the API answers it: 503 unavailable, the pool's timeout as its cause.
        expect(DocqaError.is(waited, 'unavailable'), String(waited)).to.equal(true);
        expect(String((waited?.cause as Error | undefined)?.message)).to.equal(
          'timeout exceeded when trying to connect',
        );
        expect(Date.now() - started).to.be.within(800, 2000);
      } finally {
        await holders;
      }
    });

    it('replaces a connection older than DB_POOL_RECYCLE seconds', async () => {
      const pid = async () => (await kernel.db.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      const first = await pid();
      expect(await pid()).to.equal(first);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await pid()).to.not.equal(first);
    });
  });

  it('keeps the embedded database at its one connection whatever DB_POOL_SIZE says', async function () {
    if (process.env.TEST_DATABASE_URL) this.skip();
    const kernel = await startTestKernel({ env: { DB_POOL_SIZE: '50', DB_MAX_OVERFLOW: '100' } });
    try {
      expect(kernel.connection.mode).to.equal('embedded');
      expect(kernel.connection.pool.options.max).to.equal(1);
      // Concurrent statements take turns on that connection: one backend answers them all.
      const pids = await Promise.all(
        Array.from({ length: 5 }, () => kernel.db.query<{ pid: number }>('select pg_backend_pid() as pid')),
      );
      expect(new Set(pids.map((result) => result.rows[0]?.pid)).size).to.equal(1);
    } finally {
      await kernel.dispose();
    }
  });
});
