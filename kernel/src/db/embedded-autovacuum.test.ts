import { expect } from 'chai';
import pino from 'pino';
import { openEmbeddedDatabase, type DatabaseConnection } from './pool.js';
import {
  maintenanceDue,
  startEmbeddedAutovacuum,
  type EmbeddedAutovacuum,
  type TableActivity,
} from './embedded-autovacuum.js';

const quiet = pino({ level: 'silent' });
const idle: TableActivity = {
  table: 't',
  reltuples: 10_000,
  deadRows: 0,
  insertedSinceVacuum: 0,
  modifiedSinceAnalyze: 0,
  hasGraphIndex: false,
};

describe('embedded autovacuum: when a table is due (autovacuum defaults)', () => {
  it('vacuums past 50 dead rows plus a fifth of the table, or 1,000 inserted rows plus a fifth', () => {
    expect(maintenanceDue({ ...idle, deadRows: 2050 })).to.deep.equal({ vacuum: false, analyze: false });
    expect(maintenanceDue({ ...idle, deadRows: 2051 }).vacuum).to.equal(true);
    expect(maintenanceDue({ ...idle, insertedSinceVacuum: 3000 }).vacuum).to.equal(false);
    expect(maintenanceDue({ ...idle, insertedSinceVacuum: 3001 }).vacuum).to.equal(true);
  });

  it('analyzes past 50 changed rows plus a tenth; a table never counted (reltuples -1) counts as empty', () => {
    expect(maintenanceDue({ ...idle, modifiedSinceAnalyze: 1050 }).analyze).to.equal(false);
    expect(maintenanceDue({ ...idle, modifiedSinceAnalyze: 1051 }).analyze).to.equal(true);
    expect(maintenanceDue({ ...idle, reltuples: -1, modifiedSinceAnalyze: 51 }).analyze).to.equal(true);
  });
});

describe('embedded autovacuum on PGlite', function () {
  this.timeout(60_000);
  let db: DatabaseConnection;
  let autovacuum: EmbeddedAutovacuum;
  beforeEach(async () => {
    db = await openEmbeddedDatabase(null);
    // A naptime longer than any test: passes run when the test asks.
    autovacuum = startEmbeddedAutovacuum(db.pool, quiet, 3_600_000);
  });
  afterEach(async () => {
    await autovacuum.stop();
    await db.close();
  });

  const counters = async (table: string) => {
    await db.pool.query('select pg_stat_force_next_flush()');
    return (
      await db.pool.query<{ dead: string; reltuples: number; modified: string }>(
        `select s.n_dead_tup as dead, c.reltuples::float8 as reltuples, s.n_mod_since_analyze as modified from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`,
        [table],
      )
    ).rows[0]!;
  };

  it('removes the dead rows a delete left and gives the planner the row count; the next pass has nothing to do', async () => {
    await db.pool.query('create table note (id int primary key, body text)');
    await db.pool.query(`insert into note select i, repeat('x', 200) from generate_series(1, 4000) i`);
    await db.pool.query('delete from note where id > 1000');
    expect(Number((await counters('note')).dead)).to.equal(3000);

    const done = await autovacuum.runOnce();
    expect(done.find((entry) => entry.table === 'public.note')).to.include({
      vacuum: true,
      analyze: true,
      indexCleanup: true,
    });
    const after = await counters('note');
    expect(Number(after.dead)).to.equal(0);
    expect(after.reltuples).to.equal(1000);
    expect(Number(after.modified)).to.equal(0);
    expect(await autovacuum.runOnce()).to.deep.equal([]);
    // The settings it used for itself are not left on the one session.
    const { rows } = await db.pool.query<{ mem: string; target: string }>(
      `select current_setting('maintenance_work_mem') as mem, current_setting('default_statistics_target') as target`,
    );
    expect(rows[0]).to.deep.equal({ mem: '64MB', target: '100' });
  });

  it('analyzes with a statistics target of 10, so it samples 3,000 rows, not 30,000', async () => {
    await db.pool.query('create table reading (id int, value int)');
    await db.pool.query('insert into reading select i, i from generate_series(1, 5000) i');
    await autovacuum.runOnce();
    const { rows } = await db.pool.query<{ buckets: number }>(
      `select array_length(histogram_bounds, 1) as buckets from pg_stats where tablename = 'reading' and attname = 'value'`,
    );
    expect(rows[0]?.buckets).to.equal(11);
  });

  it('vacuums a table with an HNSW index without index cleanup, and its nearest-vector queries stay right', async () => {
    await db.pool.query('create extension if not exists vector');
    await db.pool.query('create table item (id int primary key, embedding vector(3))');
    await db.pool.query('create index on item using hnsw (embedding vector_cosine_ops)');
    await db.pool.query(
      `insert into item select i, format('[%s,%s,1]', i % 17, i % 5)::vector from generate_series(1, 600) i`,
    );
    await db.pool.query('delete from item where id > 100');

    const done = await autovacuum.runOnce();
    expect(done.find((entry) => entry.table === 'public.item')).to.include({ vacuum: true, indexCleanup: false });
    // The heap's rows are gone; their slots stay (counted as dead) until an index cleanup, which
    // the next passes do not retry for them.
    expect((await autovacuum.runOnce()).map((entry) => entry.table)).not.to.include('public.item');
    await db.pool.query('delete from item where id > 90');
    expect((await autovacuum.runOnce()).map((entry) => entry.table)).not.to.include('public.item');
    await db.pool.query('delete from item where id > 20');
    expect((await autovacuum.runOnce()).map((entry) => entry.table)).to.include('public.item');
    const { rows } = await db.pool.query<{ id: number }>(
      `select id from item order by embedding <=> '[3,2,1]' limit 5`,
    );
    expect(rows).to.have.length(5);
    expect(rows.every((row) => row.id <= 20)).to.equal(true);
  });
});
