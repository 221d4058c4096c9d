import { expect } from 'chai';
import { ConnectionTurns } from './connection-turns.js';
import { openEmbeddedDatabase, type DatabaseConnection } from './pool.js';
import { withStatementLimits } from './statement-limits.js';

const never = 60_000;

describe('ConnectionTurns', () => {
  it('gives the turn at once when nobody holds it, and to the next waiter when given back', async () => {
    const turns = new ConnectionTurns(1000);
    const first = await turns.take('client', never);
    const order: string[] = [];
    const second = turns.take('client', never).then((giveBack) => {
      order.push('second');
      return giveBack;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).to.deep.equal([]);
    first();
    first(); // a second give-back of the same turn changes nothing
    (await second)();
    expect(order).to.deep.equal(['second']);
    // Free again: taken at once.
    (await turns.take('statement', never))();
  });

  it('lets a statement go before a client that waits, and keeps each kind in its order', async () => {
    const turns = new ConnectionTurns(1000);
    const holder = await turns.take('client', never);
    const order: string[] = [];
    const waitFor = (kind: 'statement' | 'client', name: string) =>
      turns.take(kind, never).then((giveBack) => {
        order.push(name);
        giveBack();
      });
    const all = [
      waitFor('client', 'transaction 1'),
      waitFor('statement', 'statement 1'),
      waitFor('client', 'transaction 2'),
      waitFor('statement', 'statement 2'),
    ];
    holder();
    await Promise.all(all);
    expect(order).to.deep.equal(['statement 1', 'statement 2', 'transaction 1', 'transaction 2']);
  });

  it('gives a client that has waited its patience the turn before statements', async () => {
    const turns = new ConnectionTurns(30);
    const holder = await turns.take('statement', never);
    const order: string[] = [];
    const transaction = turns.take('client', never).then((giveBack) => {
      order.push('transaction');
      giveBack();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const statement = turns.take('statement', never).then((giveBack) => {
      order.push('statement');
      giveBack();
    });
    holder();
    await Promise.all([transaction, statement]);
    expect(order).to.deep.equal(['transaction', 'statement']);
  });

  it('fails a wait that outlasts its timeout with the pool’s message, and serves the others', async () => {
    const turns = new ConnectionTurns(1000);
    const holder = await turns.take('client', never);
    const late = await turns.take('statement', 20).then(
      () => null,
      (error: Error) => error,
    );
    expect(late?.message).to.equal('timeout exceeded when trying to connect');
    const next = turns.take('statement', never);
    holder();
    (await next)();
  });

  it('drops a waiter whose client went away at once, and gives the turn to the next', async () => {
    const turns = new ConnectionTurns(1000);
    const holder = await turns.take('client', never);
    const gone = new AbortController();
    const abandoned = turns.take('statement', never, gone.signal).then(
      () => null,
      (error: Error) => error,
    );
    const next = turns.take('statement', never);
    gone.abort();
    expect((await abandoned)?.message).to.match(/aborted by the client/);
    holder();
    (await next)();
    // Already gone before asking: refused without waiting.
    const late = await turns.take('statement', never, gone.signal).then(
      () => null,
      (error: Error) => error,
    );
    expect(late?.message).to.match(/aborted by the client/);
  });
});

describe('embedded database pool: turns', () => {
  let db: DatabaseConnection;
  beforeEach(async () => {
    db = await openEmbeddedDatabase(null);
    await db.pool.query('create table log (at serial, what text)');
  });
  afterEach(async () => db.close());

  it('runs a statement sent while a transaction waits before that transaction', async () => {
    const holder = await db.pool.connect();
    await holder.query('begin');
    await holder.query(`insert into log (what) values ('holder')`);
    const waiting = (async () => {
      const client = await db.pool.connect();
      try {
        await client.query(`insert into log (what) values ('waiting transaction')`);
      } finally {
        client.release();
      }
    })();
    await new Promise((resolve) => setImmediate(resolve));
    const statement = db.pool.query(`insert into log (what) values ('statement')`);
    await holder.query('commit');
    holder.release();
    await Promise.all([waiting, statement]);
    const { rows } = await db.pool.query<{ what: string }>('select what from log order by at');
    expect(rows.map((row) => row.what)).to.deep.equal(['holder', 'statement', 'waiting transaction']);
  });

  it('starts no statement for work whose client went away (PGlite cannot cancel one)', async () => {
    const gone = new AbortController();
    const limits = { timeoutMs: 1000, setting: 'REQUEST_STATEMENT_TIMEOUT_SECONDS', signal: gone.signal };
    const holder = await db.pool.connect();
    const waiting = withStatementLimits(limits, () => db.pool.query(`insert into log (what) values ('abandoned')`));
    const refused = waiting.then(
      () => null,
      (error: Error) => error,
    );
    gone.abort();
    expect((await refused)?.message).to.match(/aborted by the client/);
    holder.release();
    const { rows } = await db.pool.query('select what from log');
    expect(rows).to.deep.equal([]);
  });

  it('passes the turn on after a client released with an error', async () => {
    const client = await db.pool.connect();
    client.release(new Error('broken'));
    const [{ rows }] = await Promise.all([db.pool.query<{ n: number }>('select 1 as n'), db.pool.query('select 2')]);
    expect(rows[0]?.n).to.equal(1);
  });
});
