import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { describeConnectorConformance } from '@docqa/plugin-testkit';
import { progressEveryKeys } from './sync.js';
import {
  collect,
  cursorOf,
  deletedIds,
  initIntegration,
  openSource,
  readAll,
  rejection,
  startTestStore,
  temporaryDirectory,
  upsertedIds,
  type TestStore,
} from './s3rver-fixture.test.js';

/*
 * Every test runs against a real S3-compatible server (s3rver on 127.0.0.1, see the fixture):
 * the conformance suite every integration passes, then what is particular to S3.
 */

const bucket = 'docs';

/** The objects every test starts with: three indexed files, one file type DocQA does not read. */
async function seed(store: TestStore): Promise<void> {
  await store.put(bucket, 'handbook/intro.md', '# Welcome\nRead this first.', 'text/markdown');
  await store.put(bucket, 'handbook/policies/leave.txt', 'Ask two weeks ahead.', 'text/plain');
  await store.put(bucket, 'reports/q1.csv', 'quarter,revenue\nq1,100\n', 'text/csv');
  await store.put(bucket, 'tools/setup.exe', 'MZ not a document');
}

describeConnectorConformance('integration-s3 (s3rver)', {
  async start() {
    const store = await startTestStore([bucket]);
    const stateDir = temporaryDirectory();
    await seed(store);
    return {
      provider: await initIntegration(stateDir),
      validConfig: store.sourceConfig(bucket),
      invalidConfig: store.sourceConfig('Not_A_Bucket'),
      async mutate() {
        await store.put(bucket, 'handbook/holidays.md', '# Holidays\nTwenty-five days.');
        await store.put(bucket, 'reports/q1.csv', 'quarter,revenue\nq1,120\n');
        await store.remove(bucket, 'handbook/policies/leave.txt');
        return {
          added: ['handbook/holidays.md'],
          changed: ['reports/q1.csv'],
          deleted: ['handbook/policies/leave.txt'],
        };
      },
      async dispose() {
        await store.stop();
        fs.rmSync(stateDir, { recursive: true, force: true });
      },
    };
  },
});

describe('integration-s3 sync (s3rver)', function () {
  let store: TestStore;
  let stateDir: string;

  beforeEach(async function () {
    store = await startTestStore([bucket]);
    stateDir = temporaryDirectory();
    await seed(store);
  });

  afterEach(async function () {
    await store.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function syncOnce(cursor: string | null, config: Record<string, unknown> = {}, sourceId = 'source-1') {
    const source = await openSource(await initIntegration(stateDir), store.sourceConfig(bucket, config), sourceId);
    try {
      return await collect(source, cursor);
    } finally {
      await source.close?.();
    }
  }

  it('announces each included object with its key, relative path, size, time, ETag hash and media type', async function () {
    const events = await syncOnce(null, { prefix: 'handbook/' });
    expect(upsertedIds(events).sort()).to.deep.equal(['handbook/intro.md', 'handbook/policies/leave.txt']);
    const leave = events.find((e) => e.type === 'upsert' && e.document.externalId === 'handbook/policies/leave.txt');
    if (leave?.type !== 'upsert') throw new Error('no upsert of leave.txt');
    const text = 'Ask two weeks ahead.';
    expect(leave.document).to.include({
      path: 'policies/leave.txt',
      title: 'leave.txt',
      mediaType: 'text/plain',
      size: text.length,
    });
    // A single-part upload's ETag is the MD5 of its bytes.
    expect(leave.document.contentHash).to.equal(crypto.createHash('md5').update(text).digest('hex'));
    expect(leave.document.modifiedAt).to.be.instanceOf(Date);
    expect(Math.abs(leave.document.modifiedAt!.getTime() - Date.now())).to.be.below(60_000);
    expect(await readAll(await leave.document.open())).to.equal(text);
    expect(events.at(-1)?.type).to.equal('checkpoint');
  });

  it('asks the store for the Content-Type of objects whose name has no known extension', async function () {
    await store.put(bucket, 'LICENSE', 'Permission is hereby granted.', 'text/plain; charset=utf-8');
    await store.put(bucket, 'blob.dat', 'opaque', 'application/octet-stream');
    const events = await syncOnce(null, { include: ['LICENSE', '.dat'] });
    const byId = new Map(
      events.flatMap((e) => (e.type === 'upsert' ? [[e.document.externalId, e.document] as const] : [])),
    );
    expect([...byId.keys()].sort()).to.deep.equal(['LICENSE', 'blob.dat']);
    expect(byId.get('LICENSE')?.mediaType).to.equal('text/plain');
    // "octet-stream" says nothing: left to the pipeline to detect.
    expect(byId.get('blob.dat')?.mediaType).to.equal(undefined);
  });

  it('filters by prefix, include suffixes and globs, and size', async function () {
    await store.put(bucket, 'handbook/archive/old.md', 'old');
    await store.put(bucket, 'handbook/Scan.PDF', '%PDF-1.4 tiny');
    await store.put(bucket, 'handbook/big.md', 'x'.repeat(2048));
    await store.put(bucket, 'handbooks-other/x.md', 'not under the prefix handbook/');
    // Small pages, so that the filters also work across page boundaries.
    const config = { prefix: 'handbook/', page_size: 2, max_object_bytes: 1024 };
    expect(upsertedIds(await syncOnce(null, config)).sort()).to.deep.equal([
      'handbook/Scan.PDF',
      'handbook/archive/old.md',
      'handbook/intro.md',
      'handbook/policies/leave.txt',
    ]);
    expect(upsertedIds(await syncOnce(null, { ...config, include: ['*.md'] }, 'source-2')).sort()).to.deep.equal([
      'handbook/archive/old.md',
      'handbook/intro.md',
    ]);
    expect(
      upsertedIds(await syncOnce(null, { ...config, include: ['policies/**', '**/*.{pdf,PDF}'] }, 'source-3')).sort(),
    ).to.deep.equal(['handbook/Scan.PDF', 'handbook/policies/leave.txt']);
    // No prefix: every key counts, including the default's refusal of .exe.
    expect(upsertedIds(await syncOnce(null, {}, 'source-4'))).to.not.include('tools/setup.exe');
  });

  it('pages through more than 1,000 keys, reporting progress every 500', async function () {
    this.timeout(120_000);
    const keys = Array.from({ length: 1001 }, (_, i) => `many/doc-${String(i).padStart(4, '0')}.txt`);
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(keys.slice(start, start + 50).map((key) => store.put(bucket, key, `body of ${key}`)));
    }
    const events = await syncOnce(null, { prefix: 'many/' });
    expect(upsertedIds(events).sort()).to.deep.equal(keys);
    expect(events.filter((e) => e.type === 'progress')).to.deep.equal([
      { type: 'progress', done: progressEveryKeys },
      { type: 'progress', done: 2 * progressEveryKeys },
    ]);
    // The incremental sync over the same 1,001 keys finds nothing and keeps the cursor.
    const cursor = cursorOf(events);
    const again = await syncOnce(cursor, { prefix: 'many/' });
    expect(upsertedIds(again)).to.deep.equal([]);
    expect(cursorOf(again)).to.equal(cursor);
  });

  it('an overwrite with the same bytes is still a change (LastModified), a new generation in the cursor', async function () {
    const first = await syncOnce(null);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // s3rver's LastModified has one-second precision
    await store.put(bucket, 'reports/q1.csv', 'quarter,revenue\nq1,100\n');
    const second = await syncOnce(cursorOf(first));
    expect(upsertedIds(second)).to.deep.equal(['reports/q1.csv']);
    expect(cursorOf(first)).to.match(/^1:[0-9a-f]{64}$/);
    expect(cursorOf(second)).to.match(/^2:[0-9a-f]{64}$/);
  });

  it('a stale cursor or a lost state file triggers a full resync', async function () {
    const first = await syncOnce(null);
    await store.remove(bucket, 'reports/q1.csv');
    const second = await syncOnce(cursorOf(first));
    expect(deletedIds(second)).to.deep.equal(['reports/q1.csv']);

    // DocQA hands back the older cursor (say, the second checkpoint was never stored): everything again.
    const stale = await syncOnce(cursorOf(first));
    expect(upsertedIds(stale).sort()).to.deep.equal(['handbook/intro.md', 'handbook/policies/leave.txt']);

    // The state file is gone (a wiped temporary directory): everything again; deletes cannot be known.
    fs.rmSync(stateDir, { recursive: true, force: true });
    await store.remove(bucket, 'handbook/intro.md');
    const lost = await syncOnce(cursorOf(stale));
    expect(upsertedIds(lost)).to.deep.equal(['handbook/policies/leave.txt']);
    expect(deletedIds(lost)).to.deep.equal([]);
    // From then on it is incremental again.
    expect(upsertedIds(await syncOnce(cursorOf(lost)))).to.deep.equal([]);
  });

  it('a full resync still deletes what a stale state remembers, and a new prefix re-announces every path', async function () {
    const first = await syncOnce(null);
    await store.remove(bucket, 'handbook/intro.md');
    const resync = await syncOnce(null);
    expect(upsertedIds(resync).sort()).to.deep.equal(['handbook/policies/leave.txt', 'reports/q1.csv']);
    expect(deletedIds(resync)).to.deep.equal(['handbook/intro.md']);

    const narrowed = await syncOnce(cursorOf(resync), { prefix: 'handbook/' });
    expect(upsertedIds(narrowed)).to.deep.equal(['handbook/policies/leave.txt']);
    expect(deletedIds(narrowed)).to.deep.equal(['reports/q1.csv']);
    expect(cursorOf(first)).to.not.equal(cursorOf(narrowed));
  });

  it('keeps one state file per source, and rejects a cursor it did not make', async function () {
    await syncOnce(null, {}, 'source-a');
    // Another source of the same bucket starts from scratch.
    expect(upsertedIds(await syncOnce(null, {}, 'source-b'))).to.have.length(3);
    expect(fs.readdirSync(stateDir).sort()).to.deep.equal(['source-a.s3-state.jsonl', 'source-b.s3-state.jsonl']);
    const error = await rejection(syncOnce('2025-01-01T00:00:00Z'));
    expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
  });
});
