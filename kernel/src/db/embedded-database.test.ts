import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { createEmbeddedDatabase } from './embedded-database.js';
import { openEmbeddedDatabase } from './pool.js';

describe('the embedded database on disk', function () {
  // Creating a database runs initdb in a child process: 10 s alone, over a minute on a busy machine.
  this.timeout(300_000);
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-embedded-'));
  });

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is created by a child process, then opened here with a small shared buffer pool, and found again on the next start', async () => {
    const first = await openEmbeddedDatabase(dataDir);
    try {
      expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).to.equal(true);
      const { rows } = await first.pool.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows[0]?.shared_buffers).to.equal('16MB');
      await first.pool.query('create table kept (value text)');
      await first.pool.query(`insert into kept values ('still here')`);
      // pgvector is there, as the vector store needs it.
      await first.pool.query('create extension if not exists vector');
      expect(
        (await first.pool.query<{ d: number }>(`select '[1,2,3]'::vector <=> '[1,2,3]'::vector as d`)).rows[0]?.d,
      ).to.equal(0);
    } finally {
      await first.close();
    }
    const second = await openEmbeddedDatabase(dataDir);
    try {
      expect((await second.pool.query<{ value: string }>('select value from kept')).rows).to.deep.equal([
        { value: 'still here' },
      ]);
    } finally {
      await second.close();
    }
  });

  it('leaves an existing database alone (no child process, nothing rewritten)', async () => {
    const pgDir = path.join(dataDir, 'pgdata');
    await createEmbeddedDatabase(pgDir);
    const marker = path.join(pgDir, 'PG_VERSION');
    const written = fs.statSync(marker).mtimeMs;
    const started = Date.now();
    await createEmbeddedDatabase(pgDir);
    expect(Date.now() - started, 'no child process was started').to.be.below(100);
    expect(fs.statSync(marker).mtimeMs).to.equal(written);
  });

  it('names the directory and the cause when the child cannot create the database', async () => {
    // A file where PostgreSQL puts its catalog directory: copying the new database there fails.
    const pgDir = path.join(dataDir, 'pgdata');
    fs.mkdirSync(pgDir);
    fs.writeFileSync(path.join(pgDir, 'global'), 'in the way');
    const error = await openEmbeddedDatabase(dataDir).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(DocqaError);
    expect((error as DocqaError).message).to.include(
      `Cannot open the embedded database in ${pgDir}: creating the database failed`,
    );
    // The directory lock was released: the operator can fix the directory and start again.
    expect(fs.existsSync(path.join(pgDir, 'docqa.lock'))).to.equal(false);
  });
});
