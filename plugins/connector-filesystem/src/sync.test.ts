import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError, type ConnectorEvent } from '@docqa/plugin-api';
import { Sandbox, cursorOf, deletedIds, rejection, upserted, upsertedIds } from './fixtures.test-support.js';

/** What a sync yields over time: changes, moves, the state file, stale cursors, cancellation, scale. */
describe('connector-filesystem sync', function () {
  let sandbox: Sandbox;

  beforeEach(function () {
    sandbox = new Sandbox();
  });

  afterEach(function () {
    sandbox.dispose();
  });

  const sha256 = (content: string | Buffer) => crypto.createHash('sha256').update(content).digest('hex');
  const readState = () =>
    JSON.parse(fs.readFileSync(sandbox.stateFile(), 'utf8')) as {
      generation: number;
      root: string;
      files: Record<string, [number, number, string]>;
    };

  describe('change detection', function () {
    it('announces a touched file whose content is unchanged not at all, but remembers its new mtime', async function () {
      sandbox.write('a.txt', 'alpha');
      const first = await sandbox.sync(null);
      const later = new Date(Date.now() + 60_000);
      fs.utimesSync(path.join(sandbox.docs, 'a.txt'), later, later);

      const touched = await sandbox.sync(cursorOf(first));
      expect(
        touched.filter((event) => event.type !== 'checkpoint'),
        'events after a touch',
      ).to.deep.equal([]);
      expect(readState().files['a.txt']![1]).to.equal(fs.statSync(path.join(sandbox.docs, 'a.txt')).mtimeMs);
      expect(cursorOf(touched), 'a new state, so a new cursor').to.not.equal(cursorOf(first));

      // Nothing changed since: nothing announced, and the cursor comes back unchanged.
      const quiet = await sandbox.sync(cursorOf(touched));
      expect(quiet).to.deep.equal([{ type: 'checkpoint', cursor: cursorOf(touched) }]);
    });

    it('announces changed content with its new hash, size and mtime', async function () {
      sandbox.write('a.txt', 'alpha');
      const first = await sandbox.sync(null);
      sandbox.write('a.txt', 'alpha, revised');
      const [document] = upserted(await sandbox.sync(cursorOf(first)));
      expect(document).to.include({
        externalId: 'a.txt',
        size: 'alpha, revised'.length,
        contentHash: sha256('alpha, revised'),
      });
      expect(document!.modifiedAt!.getTime()).to.equal(
        Math.floor(fs.statSync(path.join(sandbox.docs, 'a.txt')).mtimeMs),
      );
    });

    it('reports progress every 200 files examined', async function () {
      for (let i = 0; i < 450; i += 1) sandbox.write(`f${i}.txt`, `file ${i}`);
      const events = await sandbox.sync(null);
      expect(events.filter((event) => event.type === 'progress')).to.deep.equal([
        { type: 'progress', done: 200 },
        { type: 'progress', done: 400 },
      ]);
    });

    it('skips files above maxFileBytes, logging them, and deletes a known file that grew beyond it', async function () {
      sandbox.write('small.txt', 'x'.repeat(10));
      sandbox.write('big.txt', 'x'.repeat(100));
      const first = await sandbox.sync(null, {}, { maxFileBytes: 50 });
      expect(upsertedIds(first)).to.deep.equal(['small.txt']);
      expect(sandbox.logger.lines.find((line) => line.fields.path === 'big.txt')).to.deep.include({
        level: 'warn',
        message: 'file skipped: larger than maxFileBytes',
      });

      sandbox.write('small.txt', 'x'.repeat(60));
      const second = await sandbox.sync(cursorOf(first), {}, { maxFileBytes: 50 });
      expect(deletedIds(second)).to.deep.equal(['small.txt']);
    });

    it('skips a file that vanishes between listing and reading', async function () {
      for (let i = 0; i < 300; i += 1) sandbox.write(`f${String(i).padStart(3, '0')}.txt`, `file ${i}`);
      const provider = await sandbox.provider();
      const source = await provider.open(provider.sourceConfigSchema.parse({ path: sandbox.docs }), {
        sourceId: 'source-1',
      });
      const events: ConnectorEvent[] = [];
      for await (const event of source.sync(null, new AbortController().signal)) {
        // Once the first file is announced, the directory is being listed: delete everything else.
        if (events.length === 0)
          for (let i = 0; i < 300; i += 1)
            fs.rmSync(path.join(sandbox.docs, `f${String(i).padStart(3, '0')}.txt`), { force: true });
        events.push(event);
      }
      expect(upserted(events).length, 'files announced before they vanished').to.be.below(300);
      expect(Object.keys(readState().files)).to.have.length(upserted(events).length);
    });
  });

  describe('moves', function () {
    it('yields the upsert of the new path with movedFrom, then the delete of the old path', async function () {
      sandbox.write('inbox/report.pdf', 'quarterly report');
      sandbox.write('keep.txt', 'unchanged');
      const first = await sandbox.sync(null);
      fs.mkdirSync(path.join(sandbox.docs, 'archive'));
      fs.renameSync(path.join(sandbox.docs, 'inbox/report.pdf'), path.join(sandbox.docs, 'archive/report-2024.pdf'));

      const events = (await sandbox.sync(cursorOf(first))).filter((event) => event.type !== 'checkpoint');
      expect(events.map((event) => event.type)).to.deep.equal(['upsert', 'delete']);
      const [upsert, deletion] = events;
      expect(upsert?.type === 'upsert' && upsert.document).to.include({
        externalId: 'archive/report-2024.pdf',
        movedFrom: 'inbox/report.pdf',
        contentHash: sha256('quarterly report'),
      });
      expect(deletion).to.deep.equal({ type: 'delete', externalId: 'inbox/report.pdf' });
    });

    it("does not call a copy a move, nor an existing file that took a deleted file's content", async function () {
      sandbox.write('a.txt', 'same content');
      sandbox.write('b.txt', 'other content');
      const first = await sandbox.sync(null);
      sandbox.write('copy-of-a.txt', 'same content');
      const copied = await sandbox.sync(cursorOf(first));
      expect(upserted(copied).map((document) => [document.externalId, document.movedFrom])).to.deep.equal([
        ['copy-of-a.txt', undefined],
      ]);
      expect(deletedIds(copied)).to.deep.equal([]);

      sandbox.remove('a.txt');
      sandbox.write('b.txt', 'same content');
      const rewritten = await sandbox.sync(cursorOf(copied));
      expect(upserted(rewritten).map((document) => [document.externalId, document.movedFrom])).to.deep.equal([
        ['b.txt', undefined],
      ]);
      expect(deletedIds(rewritten)).to.deep.equal(['a.txt']);
    });
  });

  describe('state file and cursor', function () {
    it('replaces the state file atomically at each checkpoint, and the cursor names it', async function () {
      sandbox.write('a.txt', 'alpha');
      const first = await sandbox.sync(null);
      const firstInode = fs.statSync(sandbox.stateFile()).ino;
      expect(cursorOf(first)).to.equal(`1:${sha256(fs.readFileSync(sandbox.stateFile()))}`);
      expect(readState()).to.deep.include({ generation: 1, root: sandbox.docs });

      sandbox.write('b.txt', 'beta');
      const second = await sandbox.sync(cursorOf(first));
      // A new file renamed over the old one (another inode), never the old one rewritten in place.
      expect(fs.statSync(sandbox.stateFile()).ino).to.not.equal(firstInode);
      expect(cursorOf(second)).to.equal(`2:${sha256(fs.readFileSync(sandbox.stateFile()))}`);
      expect(Object.keys(readState().files).sort()).to.deep.equal(['a.txt', 'b.txt']);
      expect(fs.readdirSync(sandbox.stateDir), 'no temporary files left').to.deep.equal(['source-1.json']);
    });

    it('after the state file is lost, a stale cursor gives a full sync without deletes it cannot know', async function () {
      sandbox.write('a.txt', 'alpha');
      sandbox.write('b.txt', 'beta');
      const first = await sandbox.sync(null);
      fs.rmSync(sandbox.stateFile());
      sandbox.remove('b.txt');
      const resync = await sandbox.sync(cursorOf(first));
      expect(upsertedIds(resync)).to.deep.equal(['a.txt']);
      expect(deletedIds(resync)).to.deep.equal([]);
      expect(fs.existsSync(sandbox.stateFile())).to.equal(true);
    });

    it('a cursor older than the state file gives a full sync, with deletes for what the state knew', async function () {
      sandbox.write('a.txt', 'alpha');
      sandbox.write('b.txt', 'beta');
      const first = await sandbox.sync(null);
      sandbox.write('c.txt', 'gamma');
      await sandbox.sync(cursorOf(first)); // its checkpoint, say, was never stored by the kernel
      sandbox.remove('b.txt');
      const resync = await sandbox.sync(cursorOf(first));
      expect(upsertedIds(resync)).to.deep.equal(['a.txt', 'c.txt']);
      expect(deletedIds(resync)).to.deep.equal(['b.txt']);
    });

    it('a corrupt state file means a full sync, not a failure', async function () {
      sandbox.write('a.txt', 'alpha');
      const first = await sandbox.sync(null);
      fs.writeFileSync(sandbox.stateFile(), '{"version":1,"generation":');
      expect(upsertedIds(await sandbox.sync(cursorOf(first)))).to.deep.equal(['a.txt']);
      expect(sandbox.logger.lines.some((line) => line.message === 'sync state malformed; doing a full sync')).to.equal(
        true,
      );
    });

    it('rejects a cursor it did not make', async function () {
      sandbox.write('a.txt', 'alpha');
      const error = await rejection(sandbox.sync('2025-01-01T00:00:00Z'));
      expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
    });
  });

  describe('cancellation and scale', function () {
    it('stops mid-walk with the signal reason, without a checkpoint and without touching the state', async function () {
      for (let i = 0; i < 20; i += 1)
        for (let j = 0; j < 30; j += 1) sandbox.write(`d${i}/f${j}.txt`, `file ${i}/${j}`);
      const controller = new AbortController();
      const reason = new Error('cancelled by the test');
      const provider = await sandbox.provider();
      const source = await provider.open(provider.sourceConfigSchema.parse({ path: sandbox.docs }), {
        sourceId: 'source-1',
      });
      const seen: ConnectorEvent[] = [];
      const error = await rejection(
        (async () => {
          for await (const event of source.sync(null, controller.signal)) {
            seen.push(event);
            if (event.type === 'progress') controller.abort(reason); // after 200 of 600 files
          }
        })(),
      );
      expect(error).to.equal(reason);
      expect(seen.filter((event) => event.type === 'checkpoint')).to.deep.equal([]);
      expect(upserted(seen).length).to.be.within(199, 200);
      expect(fs.existsSync(sandbox.stateFile()), 'state written by a cancelled sync').to.equal(false);
    });

    it('syncs 5,000 small files, writes their state, and finds nothing new the second time', async function () {
      for (let i = 0; i < 50; i += 1) {
        const directory = path.join(sandbox.docs, `folder-${i}`);
        fs.mkdirSync(directory);
        for (let j = 0; j < 100; j += 1) fs.writeFileSync(path.join(directory, `note-${j}.txt`), `note ${i}-${j}`);
      }
      // Counted, not collected: holding 5,000 events is what the test avoids asking of the connector.
      const count = async (cursor: string | null) => {
        const totals = { upserts: 0, deletes: 0, progress: 0, cursor: '' };
        const provider = await sandbox.provider();
        const source = await provider.open(provider.sourceConfigSchema.parse({ path: sandbox.docs }), {
          sourceId: 'source-1',
        });
        for await (const event of source.sync(cursor, new AbortController().signal)) {
          if (event.type === 'upsert') totals.upserts += 1;
          else if (event.type === 'delete') totals.deletes += 1;
          else if (event.type === 'progress') totals.progress += 1;
          else totals.cursor = event.cursor;
        }
        return totals;
      };
      const first = await count(null);
      expect(first).to.include({ upserts: 5_000, deletes: 0, progress: 25 });
      const state = readState();
      expect(Object.keys(state.files)).to.have.length(5_000);
      expect(state.files['folder-7/note-42.txt']).to.deep.equal([
        'note 7-42'.length,
        state.files['folder-7/note-42.txt']![1],
        sha256('note 7-42'),
      ]);

      const second = await count(first.cursor);
      expect(second).to.deep.equal({ upserts: 0, deletes: 0, progress: 25, cursor: first.cursor });
    });
  });
});
