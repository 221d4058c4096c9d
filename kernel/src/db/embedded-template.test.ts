import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync, fork } from 'node:child_process';
import { expect } from 'chai';
import { PGlite } from '@electric-sql/pglite';
import { createEmbeddedDatabase, embeddedOptions } from './embedded-database.js';
import { embeddedTemplatePath, unpackEmbeddedTemplate } from './embedded-template.js';

/** The build's step, run as the build runs it (a process of its own), into `directory`. */
function writeTemplate(directory: string): Promise<void> {
  const entry = new URL(`./write-embedded-template${path.extname(new URL(import.meta.url).pathname)}`, import.meta.url);
  return new Promise((resolve, reject) => {
    const child = fork(entry, [directory], {
      execArgv: process.execArgv.filter((flag) => !/^--inspect/.test(flag)),
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`write-embedded-template exited with ${code}`)),
    );
  });
}

/** A ustar header block for `name` (type '0' file or '5' directory), as `tar` writes it. */
function tarHeader(name: string, size: number, type: '0' | '5'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000600\0', 100);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0', 257);
  return header;
}

/** The message a promise is rejected with; fails the test if it resolves. */
async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => (error as Error).message,
  );
}

describe('the embedded database template', function () {
  // Writing the template runs initdb once: 10 s alone, over a minute on a busy machine.
  this.timeout(300_000);
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-template-'));
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is written once per PGlite version, and a new database unpacked from it opens, takes pgvector and keeps its data', async () => {
    const templates = path.join(root, 'templates');
    fs.mkdirSync(templates);
    fs.writeFileSync(
      path.join(templates, 'embedded-template-pglite-0.0.1.tar.gz'),
      'a stale template of another PGlite',
    );
    await writeTemplate(templates);
    const template = embeddedTemplatePath(templates);
    expect(fs.readdirSync(templates)).to.deep.equal([path.basename(template)]);
    const written = fs.statSync(template).mtimeMs;
    await writeTemplate(templates);
    expect(fs.statSync(template).mtimeMs, 'an existing template is kept').to.equal(written);
    // A plain ustar archive: the system's tar reads it too.
    const listed = execFileSync('tar', ['tzf', template], { encoding: 'utf8' }).split('\n');
    expect(listed).to.include.members(['PG_VERSION', 'global/pg_control', 'base/']);

    const pgDir = path.join(root, 'pgdata');
    fs.mkdirSync(pgDir);
    await createEmbeddedDatabase(pgDir, template);
    // Unpacked, not made by initdb: the control file (with its unique system identifier) is the template's.
    const byTar = path.join(root, 'by-tar');
    fs.mkdirSync(byTar);
    execFileSync('tar', ['xzf', template, '-C', byTar]);
    expect(
      fs
        .readFileSync(path.join(pgDir, 'global', 'pg_control'))
        .equals(fs.readFileSync(path.join(byTar, 'global', 'pg_control'))),
    ).to.equal(true);
    expect(fs.readFileSync(path.join(pgDir, 'PG_VERSION'), 'utf8').trim()).to.match(/^\d+$/);
    const first = await PGlite.create(embeddedOptions(pgDir));
    await first.exec(
      `create extension if not exists vector; create table kept (value text); insert into kept values ('still here')`,
    );
    expect(
      (await first.query<{ d: number }>(`select '[1,2,3]'::vector <=> '[1,2,3]'::vector as d`)).rows[0]?.d,
    ).to.equal(0);
    await first.close();
    const second = await PGlite.create(embeddedOptions(pgDir));
    expect((await second.query<{ value: string }>('select value from kept')).rows).to.deep.equal([
      { value: 'still here' },
    ]);
    await second.close();
  });

  it('writes PG_VERSION last, and refuses paths that leave the data directory', async () => {
    const pgDir = path.join(root, 'pgdata');
    fs.mkdirSync(pgDir);
    const truncated = path.join(root, 'truncated.tar.gz');
    // A template cut off before PG_VERSION: nothing that looks like a database is left behind.
    fs.writeFileSync(
      truncated,
      zlib.gzipSync(
        Buffer.concat([
          tarHeader('/global', 0, '5'),
          tarHeader('/global/1213', 3, '0'),
          Buffer.from('abc'.padEnd(512, '\0')),
          Buffer.alloc(1024),
        ]),
      ),
    );
    expect(await failure(unpackEmbeddedTemplate(truncated, pgDir))).to.match(/has no PG_VERSION/);
    expect(fs.existsSync(path.join(pgDir, 'PG_VERSION'))).to.equal(false);
    const escaping = path.join(root, 'escaping.tar.gz');
    fs.writeFileSync(
      escaping,
      zlib.gzipSync(
        Buffer.concat([tarHeader('/../outside', 1, '0'), Buffer.from('x'.padEnd(512, '\0')), Buffer.alloc(1024)]),
      ),
    );
    expect(await failure(unpackEmbeddedTemplate(escaping, pgDir))).to.match(/unsafe path/);
    expect(fs.existsSync(path.join(root, 'outside'))).to.equal(false);
  });
});
