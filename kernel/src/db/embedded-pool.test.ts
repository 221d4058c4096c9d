import { expect } from 'chai';
import { openEmbeddedDatabase, type DatabaseConnection } from './pool.js';

describe('embedded database pool after a failed query', () => {
  let db: DatabaseConnection;
  beforeEach(async () => {
    db = await openEmbeddedDatabase(null);
  });
  afterEach(async () => db.close());

  it('answers the error and then the next queries, parameterized or not', async () => {
    const failed = await db.pool.query('select 1 / $1::int', [0]).then(
      () => null,
      (error: Error) => error,
    );
    expect(failed?.message).to.equal('division by zero');
    for (let i = 0; i < 3; i++) {
      const { rows } = await db.pool.query<{ n: number }>('select $1::int as n', [i]);
      expect(rows[0]?.n).to.equal(i);
    }
  });

  it('keeps working after errors raised inside a trigger', async () => {
    await db.pool.query('create table counter (n int check (n >= 0))');
    await db.pool.query('insert into counter values (0)');
    await db.pool.query('create table event (id int)');
    await db.pool.query(
      `create function take() returns trigger language plpgsql as $$ begin update counter set n = n - 1; return new; end $$`,
    );
    await db.pool.query('create trigger take after insert on event for each row execute function take()');
    for (let i = 0; i < 3; i++) {
      const failed = await db.pool.query('insert into event values ($1)', [i]).then(
        () => null,
        (error: Error) => error,
      );
      expect(failed?.message).to.match(/violates check constraint/);
    }
    const { rows } = await db.pool.query<{ events: number; n: number }>(
      'select (select count(*)::int from event) as events, (select n from counter) as n',
    );
    expect(rows[0]).to.deep.equal({ events: 0, n: 0 });
  });

  it('gives the next client a session outside any transaction a discarded client left open', async () => {
    const client = await db.pool.connect();
    await client.query('begin');
    await client.query('select 1 / $1::int', [0]).catch(() => undefined);
    client.release(new Error('discarded mid-transaction'));
    const { rows } = await db.pool.query<{ ok: number }>('select $1::int as ok', [1]);
    expect(rows[0]?.ok).to.equal(1);
  });

  it('lets the event loop turn between the statements of a transaction', async () => {
    // PGlite runs a statement on this thread; without a turn between statements, a timer or an
    // HTTP request waited for the whole transaction.
    const client = await db.pool.connect();
    const order: string[] = [];
    try {
      await client.query('begin');
      setImmediate(() => order.push('turn'));
      for (let i = 0; i < 20; i++) await client.query('select $1::int', [i]);
      order.push('statements done');
      await client.query('commit');
    } finally {
      client.release();
    }
    expect(order).to.deep.equal(['turn', 'statements done']);
  });
});
