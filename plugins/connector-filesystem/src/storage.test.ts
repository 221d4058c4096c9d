import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError, type ConnectorStorage } from '@docqa/plugin-api';
import type { DirectorySourceConfig } from './config.js';
import { Sandbox, cursorOf, deletedIds, rejection, upserted, upsertedIds } from './fixtures.test-support.js';

/*
 * What is particular to this connector's storage (the shared storage tests are in the conformance
 * suite, index.test.ts): links, globs, the size limit, temporary files, and what syncs see after.
 */

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('connector-filesystem storage', function () {
  let sandbox: Sandbox;

  beforeEach(function () {
    sandbox = new Sandbox();
    sandbox.write('guide.md', '# Guide');
  });

  afterEach(function () {
    sandbox.dispose();
  });

  async function storage(
    config: Partial<DirectorySourceConfig> = {},
    options: Record<string, unknown> = {},
  ): Promise<ConnectorStorage> {
    const provider = await sandbox.provider(options);
    return provider.openStorage!(provider.sourceConfigSchema.parse({ path: sandbox.docs, ...config }), {
      sourceId: 'source-1',
    });
  }

  async function refusal(promise: Promise<unknown>, code: string): Promise<DocqaError> {
    const error = await rejection(promise);
    expect(DocqaError.is(error, code as DocqaError['code']), String(error)).to.equal(true);
    return error as DocqaError;
  }

  /** Every entry below a directory, relative, so a test can tell nothing was left anywhere. */
  const entriesBelow = (directory: string) => fs.readdirSync(directory, { recursive: true }).map(String).sort();

  it('writes into new directories, and a sync from the previous cursor announces exactly the new file', async function () {
    const cursor = cursorOf(await sandbox.sync(null));
    const stored = await (await storage()).write('reports/2026/q1.txt', bytes('first quarter ', 'figures'));
    expect(stored).to.deep.include({ externalId: 'reports/2026/q1.txt', path: 'reports/2026/q1.txt', size: 21 });
    expect(fs.readFileSync(path.join(sandbox.docs, 'reports/2026/q1.txt'), 'utf8')).to.equal('first quarter figures');
    const events = await sandbox.sync(cursor);
    expect(upsertedIds(events)).to.deep.equal(['reports/2026/q1.txt']);
    expect(upserted(events)[0]!.size).to.equal(21);
    expect(upsertedIds(await sandbox.sync(cursorOf(events)))).to.deep.equal([]);
  });

  it('moves the same file (inode and modification time kept), so a sync sees a move, not new content', async function () {
    const store = await storage();
    await store.write('inbox/a.txt', bytes('some content to move'));
    const cursor = cursorOf(await sandbox.sync(null));
    const before = fs.statSync(path.join(sandbox.docs, 'inbox/a.txt'));
    await store.move('inbox/a.txt', 'archive/a.txt');
    const after = fs.statSync(path.join(sandbox.docs, 'archive/a.txt'));
    expect([after.ino, after.mtimeMs]).to.deep.equal([before.ino, before.mtimeMs]);
    expect(fs.existsSync(path.join(sandbox.docs, 'inbox/a.txt'))).to.equal(false);
    const events = await sandbox.sync(cursor);
    expect(upserted(events).map((d) => [d.externalId, d.movedFrom])).to.deep.equal([['archive/a.txt', 'inbox/a.txt']]);
    expect(deletedIds(events)).to.deep.equal(['inbox/a.txt']);
  });

  it('refuses paths through links, even links that stay inside the directory, writing nothing', async function () {
    fs.symlinkSync(sandbox.outside, path.join(sandbox.docs, 'out'));
    fs.mkdirSync(path.join(sandbox.docs, 'real'));
    fs.symlinkSync(path.join(sandbox.docs, 'real'), path.join(sandbox.docs, 'in'));
    fs.symlinkSync(path.join(sandbox.outside, 'planted.txt'), path.join(sandbox.docs, 'planted.txt'));
    const store = await storage();
    for (const target of ['out/x.txt', 'out/deeper/x.txt', 'in/x.txt']) {
      const error = await refusal(store.write(target, bytes('escaping')), 'validation_failed');
      expect(error.errors?.[0]?.field).to.equal('path');
      expect(error.message).to.contain('symbolic link');
    }
    // A link at the file's own name is an existing entry: never written through.
    await refusal(store.write('planted.txt', bytes('escaping')), 'conflict');
    await store.write('real/kept.txt', bytes('inside'));
    await refusal(store.move('real/kept.txt', 'out/kept.txt'), 'validation_failed');
    expect(entriesBelow(sandbox.outside)).to.deep.equal([]);
    expect(await store.delete('in/kept.txt'), 'a delete through a link').to.equal(false);
    expect(fs.existsSync(path.join(sandbox.docs, 'real/kept.txt'))).to.equal(true);
    await refusal(store.write('guide.md/x.txt', bytes('under a file')), 'validation_failed');
  });

  it('refuses once the source directory itself became a link out of the allowed paths', async function () {
    const store = await storage();
    fs.renameSync(sandbox.docs, `${sandbox.docs}-old`);
    fs.symlinkSync(sandbox.outside, sandbox.docs);
    await refusal(store.write('x.txt', bytes('escaping')), 'validation_failed');
    expect(entriesBelow(sandbox.outside)).to.deep.equal([]);
  });

  it('refuses files the globs exclude, which a sync would never announce', async function () {
    const store = await storage({ include: ['**/*.md', '**/*.txt'], exclude: ['**/.*', '**/.*/**', 'private/**'] });
    for (const target of ['.hidden.txt', '.git/config.txt', 'notes/.draft.txt', 'private/x.txt', 'image.png']) {
      const error = await refusal(store.write(target, bytes('x')), 'validation_failed');
      expect(error.message, target).to.contain('excluded');
    }
    await refusal(store.checkWritable('.docqa-write-00000000-0000-4000-8000-000000000000.tmp'), 'validation_failed');
    expect((await store.write('notes/ok.md', bytes('# fine'))).path).to.equal('notes/ok.md');
  });

  it('stops a write over maxFileBytes and leaves no file, not even a temporary one', async function () {
    const store = await storage({}, { maxFileBytes: 10 });
    const before = entriesBelow(sandbox.docs);
    const error = await refusal(store.write('big.txt', bytes('0123456', '789abc')), 'file_too_large');
    expect(error.message).to.contain('big.txt');
    expect(entriesBelow(sandbox.docs)).to.deep.equal(before);
    expect((await store.write('small.txt', bytes('0123456789'))).size).to.equal(10);
  });

  it('a sync running while a write is in progress does not see the temporary file, even with hidden files included', async function () {
    const store = await storage({ exclude: [] });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstChunkWritten!: () => void;
    const started = new Promise<void>((resolve) => (firstChunkWritten = resolve));
    async function* slowContent(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('first part, ');
      firstChunkWritten();
      await gate;
      yield Buffer.from('second part');
    }
    const writing = store.write('slow.txt', slowContent());
    await started;
    await new Promise((resolve) => setTimeout(resolve, 20)); // the first chunk is on disk by now
    expect(
      entriesBelow(sandbox.docs).some((name) => name.startsWith('.docqa-write-')),
      'a temporary file exists mid-write',
    ).to.equal(true);
    const during = await sandbox.sync(null, { exclude: [] });
    expect(upsertedIds(during)).to.deep.equal(['guide.md']);
    release();
    await writing;
    expect(fs.readFileSync(path.join(sandbox.docs, 'slow.txt'), 'utf8')).to.equal('first part, second part');
    expect(entriesBelow(sandbox.docs).filter((name) => name.startsWith('.docqa-write-'))).to.deep.equal([]);
  });
});
