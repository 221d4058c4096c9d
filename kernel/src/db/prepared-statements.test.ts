import { expect } from 'chai';
import type { SqlExecutor } from '@docqa/plugin-api';
import { startTestKernel, type TestKernel } from '../testing/test-kernel.js';

/**
 * `{ prepared: true }` (QueryOptions): on a PostgreSQL server the statement stays prepared on the
 * connection that ran it, named after its text, and runs again without a new Parse; the embedded
 * database runs it unprepared (its one session outlives the clients the pool replaces). Seen from
 * the database's side: pg_prepared_statements lists the session's prepared statements.
 */
describe('prepared statements (QueryOptions.prepared)', function () {
  this.timeout(120_000);
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestKernel();
  });
  after(() => kernel?.dispose());

  const preparedIn = async (session: SqlExecutor) =>
    (
      await session.query<{ statement: string; runs: string }>(
        `select statement, generic_plans + custom_plans as runs from pg_prepared_statements
          where name like 'docqa\\_%' order by statement`,
      )
    ).rows.map((row) => ({ statement: row.statement, runs: Number(row.runs) }));

  const twice = 'select $1::int + 1 as n';
  const other = 'select $1::int + 2 as n';

  it('keeps a prepared statement on a PostgreSQL connection, one per text, answering as unprepared', async function () {
    if (kernel.db.mode !== 'server') this.skip();
    // A transaction holds one connection, so every statement runs in the session the check reads.
    const prepared = await kernel.db.transaction(async (tx) => {
      expect((await tx.query(twice, [1], { prepared: true })).rows).to.deep.equal([{ n: 2 }]);
      expect((await tx.query(twice, [2], { prepared: true })).rows).to.deep.equal([{ n: 3 }]);
      expect((await tx.query(other, [1], { prepared: true })).rows).to.deep.equal([{ n: 3 }]);
      await tx.query('select $1::int * 3 as n', [1]);
      return preparedIn(tx);
    });
    expect(prepared).to.deep.equal([
      { statement: twice, runs: 2 },
      { statement: other, runs: 1 },
    ]);
    // The pool and the read executor (the primary here: no replicas) answer the same.
    expect((await kernel.db.query(twice, [5], { prepared: true })).rows).to.deep.equal([{ n: 6 }]);
    expect((await kernel.readDb.query(other, [5], { prepared: true })).rows).to.deep.equal([{ n: 7 }]);
  });

  it('runs it unprepared on the embedded database', async function () {
    if (kernel.db.mode !== 'embedded') this.skip();
    expect((await kernel.db.query(twice, [1], { prepared: true })).rows).to.deep.equal([{ n: 2 }]);
    expect((await kernel.readDb.query(twice, [2], { prepared: true })).rows).to.deep.equal([{ n: 3 }]);
    expect(await preparedIn(kernel.db)).to.deep.equal([]);
  });
});
