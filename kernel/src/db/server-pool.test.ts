import { expect } from 'chai';
import { createServerPool } from './pool.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const settings = { size: 2, maxOverflow: 0, timeoutSeconds: 10, recycleSeconds: 0 };

describe('the PostgreSQL server pool', function () {
  before(function () {
    if (!serverUrl) this.skip(); // the embedded database has no JIT to turn off
  });

  it("turns JIT off on every connection, whatever the server's default", async () => {
    const pool = createServerPool(serverUrl as string, settings);
    try {
      // Two held at once: two connections, not one reused.
      const clients = await Promise.all([pool.connect(), pool.connect()]);
      const answers = await Promise.all(
        clients.map(async (client) => (await client.query<{ jit: string }>('show jit')).rows[0]?.jit),
      );
      for (const client of clients) client.release();
      expect(answers).to.deep.equal(['off', 'off']);
      expect(pool.totalCount).to.equal(2);
    } finally {
      await pool.end();
    }
  });
});
