import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { describeConnectorConformance } from '@docqa/plugin-testkit';
import connectorFilesystem from './index.js';
import { Sandbox, cursorOf, readText, rejection, upserted, upsertedIds } from './fixtures.test-support.js';

/*
 * The shared conformance suite, then what is particular to this connector's borders: plugin
 * options, which directories a source may name, links, and which files the globs select.
 * sync.test.ts covers what a sync yields over time (changes, moves, state, cancellation, scale).
 */

describeConnectorConformance('connector-filesystem', {
  async start() {
    const sandbox = new Sandbox();
    sandbox.write('guide.md', '# Guide\nRead me first.');
    sandbox.write('notes/todo.txt', 'buy milk');
    sandbox.write('notes/old.txt', 'to be deleted');
    return {
      provider: await sandbox.provider(),
      validConfig: { path: sandbox.docs },
      invalidConfig: { path: 'relative/docs' },
      async mutate() {
        sandbox.write('notes/new.txt', 'a new note');
        sandbox.write('guide.md', '# Guide\nRead me first, then the notes.'); // another size: changed for sure
        sandbox.remove('notes/old.txt');
        return { added: ['notes/new.txt'], changed: ['guide.md'], deleted: ['notes/old.txt'] };
      },
      async dispose() {
        sandbox.dispose();
      },
    };
  },
});

describe('connector-filesystem', function () {
  let sandbox: Sandbox;

  beforeEach(function () {
    sandbox = new Sandbox();
  });

  afterEach(function () {
    sandbox.dispose();
  });

  describe('plugin and source config', function () {
    it('declares a filesystem connector without secrets or ACLs', async function () {
      const provider = await sandbox.provider();
      expect(provider).to.include({ type: 'filesystem', displayName: 'Directory', sourceKind: 'connector' });
      expect(provider.secretFields).to.deep.equal([]);
      expect(provider.capabilities).to.deep.equal({ incremental: true, deletions: true, acls: false, storage: true });
      expect(provider.openStorage).to.be.a('function');
      expect(connectorFilesystem).to.include({ id: 'connector-filesystem', kind: 'connector' });
    });

    it('requires allowed paths, fixes followSymlinks to false and fills in defaults', function () {
      const options = connectorFilesystem.configSchema;
      expect(options.safeParse({}).success, 'no allowedPaths').to.equal(false);
      expect(options.safeParse({ allowedPaths: [] }).success, 'empty allowedPaths').to.equal(false);
      expect(options.safeParse({ allowedPaths: ['docs'] }).success, 'relative allowed path').to.equal(false);
      expect(
        options.safeParse({ allowedPaths: ['/app/docs'], followSymlinks: true }).success,
        'followSymlinks: true',
      ).to.equal(false);
      expect(options.safeParse({ allowedPaths: ['/app/docs'], maxFileBytes: 0 }).success, 'maxFileBytes 0').to.equal(
        false,
      );
      expect(
        options.safeParse({ allowedPaths: ['/app/docs'], allowedPath: ['/x'] }).success,
        'misspelt option',
      ).to.equal(false);
      const parsed = options.parse({ allowedPaths: ['/app/docs'] });
      expect(parsed).to.include({ followSymlinks: false });
      expect(path.isAbsolute(parsed.stateDir)).to.equal(true);
      expect(parsed.maxFileBytes).to.equal(undefined);
    });

    it('validates source config strictly and fills in the default globs', async function () {
      const { sourceConfigSchema } = await sandbox.provider();
      expect(sourceConfigSchema.parse({ path: '/srv/docs' })).to.deep.equal({
        path: '/srv/docs',
        include: ['**/*'],
        exclude: ['**/.*', '**/.*/**'],
      });
      expect(sourceConfigSchema.safeParse({ path: 'docs' }).success, 'relative path').to.equal(false);
      expect(sourceConfigSchema.safeParse({ path: '/srv/docs/../etc' }).success, '.. segment').to.equal(false);
      expect(sourceConfigSchema.safeParse({ path: '/srv/docs', includes: ['*'] }).success, 'misspelt key').to.equal(
        false,
      );
      expect(sourceConfigSchema.safeParse({ path: '/srv/docs', include: [''] }).success, 'empty glob').to.equal(false);
    });
  });

  describe('allowed paths', function () {
    async function openError(directory: string, options: Record<string, unknown> = {}): Promise<DocqaError> {
      const provider = await sandbox.provider(options);
      // The raw config, not parsed: open() must hold the border even for config that skipped the schema.
      const error = await rejection(
        provider.open({ path: directory, include: ['**/*'], exclude: [] }, { sourceId: 'source-1' }),
      );
      expect(DocqaError.is(error, 'validation_failed'), String(error)).to.equal(true);
      return error as DocqaError;
    }

    it('opens the allowed root itself and directories below it', async function () {
      const provider = await sandbox.provider();
      for (const directory of [sandbox.allowed, sandbox.docs]) {
        await provider.open(provider.sourceConfigSchema.parse({ path: directory }), { sourceId: 'source-1' });
      }
    });

    it('refuses a directory outside the allowed roots, naming it and the allowed roots', async function () {
      const error = await openError(sandbox.outside);
      expect(error.message)
        .to.contain(sandbox.outside)
        .and.contain(sandbox.allowed)
        .and.contain('outside the allowed directories');
      // A sibling whose name merely starts like the allowed root is outside too.
      fs.mkdirSync(`${sandbox.allowed}-evil`);
      expect((await openError(`${sandbox.allowed}-evil`)).message).to.contain('outside');
    });

    it('refuses ".." segments, even when they would resolve inside', async function () {
      const error = await openError(`${sandbox.docs}/../docs`); // path.join would normalise the `..` away
      expect(error.message).to.contain('".."');
      expect((await openError(`${sandbox.docs}/../../outside`)).message).to.contain('".."');
    });

    it('refuses a root that is a link to a directory outside, and accepts a link that resolves inside', async function () {
      const linkToOutside = path.join(sandbox.allowed, 'escape');
      fs.symlinkSync(sandbox.outside, linkToOutside);
      const error = await openError(linkToOutside);
      expect(error.message).to.contain(linkToOutside).and.contain(`resolves to '${sandbox.outside}'`);

      const linkInside = path.join(sandbox.allowed, 'docs-link');
      fs.symlinkSync(sandbox.docs, linkInside);
      sandbox.write('a.txt', 'A');
      const provider = await sandbox.provider();
      const source = await provider.open(provider.sourceConfigSchema.parse({ path: linkInside }), {
        sourceId: 'source-1',
      });
      const events = [];
      for await (const event of source.sync(null, new AbortController().signal)) events.push(event);
      expect(upsertedIds(events)).to.deep.equal(['a.txt']);
    });

    it('compares real paths, so an allowed root that is itself a link works', async function () {
      const linkedAllowed = path.join(sandbox.base, 'linked-allowed');
      fs.symlinkSync(sandbox.allowed, linkedAllowed);
      const provider = await sandbox.provider({ allowedPaths: [linkedAllowed] });
      await provider.open(provider.sourceConfigSchema.parse({ path: sandbox.docs }), { sourceId: 'source-1' });
      await provider.open(provider.sourceConfigSchema.parse({ path: path.join(linkedAllowed, 'docs') }), {
        sourceId: 'source-1',
      });
    });

    it('refuses a path that does not exist or is a file', async function () {
      expect((await openError(path.join(sandbox.allowed, 'missing'))).message).to.contain('does not exist');
      const file = sandbox.write('file.txt', 'x');
      expect((await openError(file)).message).to.contain('not a directory');
    });

    it('skips links inside the root and never opens what they point to', async function () {
      sandbox.write('real.txt', 'inside');
      sandbox.write('secret.txt', 'outside secret', sandbox.outside);
      // A FIFO blocks whoever opens it for reading: if the connector followed a link to it, the sync would hang.
      execFileSync('mkfifo', [path.join(sandbox.outside, 'trap')]);
      fs.symlinkSync(path.join(sandbox.outside, 'secret.txt'), path.join(sandbox.docs, 'secret.txt.lnk'));
      fs.symlinkSync(path.join(sandbox.outside, 'trap'), path.join(sandbox.docs, 'trap.txt'));
      fs.symlinkSync(sandbox.outside, path.join(sandbox.docs, 'outside-dir'));
      fs.symlinkSync(path.join(sandbox.docs, 'real.txt'), path.join(sandbox.docs, 'alias.txt')); // inside, still a link
      execFileSync('mkfifo', [path.join(sandbox.docs, 'pipe.txt')]); // not a regular file either

      const events = await sandbox.sync(null);
      expect(upsertedIds(events)).to.deep.equal(['real.txt']);
      expect(fs.readFileSync(sandbox.stateFile(), 'utf8')).to.not.contain('secret');
    });

    it('refuses to read a file that was replaced by a link after the sync announced it', async function () {
      sandbox.write('report.txt', 'quarterly numbers');
      const [document] = upserted(await sandbox.sync(null));
      expect(await readText(document!)).to.equal('quarterly numbers');
      sandbox.write('secret.txt', 'outside secret', sandbox.outside);
      sandbox.remove('report.txt');
      fs.symlinkSync(path.join(sandbox.outside, 'secret.txt'), path.join(sandbox.docs, 'report.txt'));
      const error = await rejection(readText(document!));
      expect(DocqaError.is(error, 'not_found'), String(error)).to.equal(true);
    });
  });

  describe('include and exclude globs', function () {
    beforeEach(function () {
      for (const file of [
        'README.md',
        'guide/setup.md',
        'guide/setup.pdf',
        'drafts/idea.md',
        '.env',
        'guide/.hidden.md',
        '.git/config',
        'guide/.cache/x.md',
      ]) {
        sandbox.write(file, `content of ${file}`);
      }
    });

    it('by default indexes everything but hidden files and hidden folders, with relative POSIX paths', async function () {
      const events = await sandbox.sync(null);
      expect(upsertedIds(events)).to.deep.equal(['README.md', 'drafts/idea.md', 'guide/setup.md', 'guide/setup.pdf']);
      const setup = upserted(events).find((document) => document.externalId === 'guide/setup.md')!;
      expect(setup).to.include({ path: 'guide/setup.md', title: 'setup.md', size: 'content of guide/setup.md'.length });
      expect(setup.contentHash).to.match(/^[0-9a-f]{64}$/);
      expect(setup.movedFrom).to.equal(undefined);
      expect(await readText(setup)).to.equal('content of guide/setup.md');
    });

    it('applies include and exclude on the relative path; excluded directories are not entered', async function () {
      fs.symlinkSync(sandbox.outside, path.join(sandbox.docs, 'drafts', 'link'));
      const events = await sandbox.sync(null, { include: ['**/*.md'], exclude: ['drafts/**', '**/.*', '**/.*/**'] });
      expect(upsertedIds(events)).to.deep.equal(['README.md', 'guide/setup.md']);
      // Listing drafts/ would have logged its link as skipped.
      expect(sandbox.logger.lines.filter((line) => line.fields.path === 'drafts/link')).to.deep.equal([]);
      expect(upsertedIds(await sandbox.sync(null, { include: ['*.md'] }))).to.deep.equal(['README.md']);
    });

    it('indexes hidden files once the exclusion is dropped', async function () {
      const events = await sandbox.sync(null, { include: ['**/*'], exclude: [] });
      expect(upsertedIds(events)).to.include.members(['.env', '.git/config', 'guide/.hidden.md', 'guide/.cache/x.md']);
    });

    it('turns files that a changed glob now excludes into deletes', async function () {
      const first = await sandbox.sync(null);
      const second = await sandbox.sync(cursorOf(first), { exclude: ['**/.*', '**/.*/**', '**/*.pdf'] });
      expect(upsertedIds(second)).to.deep.equal([]);
      expect(second.filter((event) => event.type === 'delete')).to.deep.equal([
        { type: 'delete', externalId: 'guide/setup.pdf' },
      ]);
    });
  });
});
