import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { openEmbeddedDatabase, type DatabaseConnection } from './pool.js';
import {
  checkpointDefaults,
  checkpointDue,
  startEmbeddedCheckpoints,
  type EmbeddedCheckpoints,
} from './embedded-checkpoints.js';

const quiet = pino({ level: 'silent' });
const mb = 2 ** 20;

describe('embedded checkpoints: when one is due', () => {
  it('past 64 MB of WAL since the last redo point, whatever its age', () => {
    expect(checkpointDue(64 * mb - 1, 0)).to.equal(null);
    expect(checkpointDue(64 * mb, 0)).to.equal('wal');
  });

  it('past five minutes once more than the checkpoint record was written, never for an idle database', () => {
    expect(checkpointDue(1 * mb, 299_999)).to.equal(null);
    expect(checkpointDue(1 * mb, 300_000)).to.equal('time');
    expect(checkpointDue(200, 3_600_000)).to.equal(null);
  });
});

describe('embedded checkpoints on PGlite', function () {
  this.timeout(120_000);
  let dir: string;
  let db: DatabaseConnection;
  let checkpoints: EmbeddedCheckpoints;
  const walDir = () => path.join(dir, 'pgdata', 'pg_wal');
  const segmentFiles = () =>
    fs
      .readdirSync(walDir())
      .filter((name) => /^[0-9A-F]{24}$/.test(name))
      .sort();
  /** A segment file's number: its name past the timeline. */
  const segmentNumber = (name: string) => Number.parseInt(name.slice(8), 16);
  const redoSegment = async () =>
    segmentNumber(
      (await db.pool.query<{ name: string }>('select pg_walfile_name(redo_lsn) as name from pg_control_checkpoint()'))
        .rows[0]!.name,
    );
  /** About `megabytes` of WAL: rows of random text, which neither compress nor repeat. */
  const writeWal = async (megabytes: number) => {
    await db.pool.query('create table if not exists filler (line text)');
    await db.pool.query(
      'insert into filler select md5(random()::text) || md5(random()::text) from generate_series(1, $1::int)',
      [megabytes * 8_000],
    );
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-checkpoints-'));
    db = await openEmbeddedDatabase(dir);
    // An interval longer than any test: checks run when the test asks; a 16 MB mark.
    checkpoints = startEmbeddedCheckpoints(db.pool, quiet, {
      ...checkpointDefaults,
      intervalMs: 3_600_000,
      walBytes: 16 * mb,
    });
  });
  afterEach(async () => {
    await checkpoints.stop();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens the database with WAL segments not zero-filled (each new one cost 16 MB of buffers) and no full-page images', async () => {
    const { rows } = await db.pool.query<{ wal_init_zero: string; full_page_writes: string }>(
      `select current_setting('wal_init_zero') as wal_init_zero, current_setting('full_page_writes') as full_page_writes`,
    );
    expect(rows[0]).to.deep.equal({ wal_init_zero: 'off', full_page_writes: 'off' });
  });

  it('checkpoints past the mark and not before, and the redo point moves on', async () => {
    expect(await checkpoints.runOnce()).to.equal(null);
    const before = await redoSegment();
    await writeWal(24);
    const record = await checkpoints.runOnce();
    expect(record?.reason).to.equal('wal');
    expect(record!.walBytes).to.be.greaterThan(16 * mb);
    expect(await redoSegment()).to.be.greaterThan(before);
    expect(await checkpoints.runOnce()).to.equal(null);
  });

  it('keeps pg_wal bounded while the log grows: segments before the redo point are recycled, not kept', async () => {
    // Without checkpoints every segment stays: 12 × 24 MB is 18 segments and more.
    for (let round = 0; round < 12; round++) {
      await writeWal(24);
      await checkpoints.runOnce();
    }
    const redo = await redoSegment();
    const kept = segmentFiles();
    expect(
      kept.filter((name) => segmentNumber(name) < redo),
      'segments older than the redo point',
    ).to.deep.equal([]);
    // The current segments, and those recycled ahead of them (min_wal_size is 80 MB, five of them).
    expect(kept.length).to.be.at.most(9);
  });
});
