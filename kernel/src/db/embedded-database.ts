import fs from 'node:fs';
import path from 'node:path';
import { fork } from 'node:child_process';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { embeddedTemplatePath, unpackEmbeddedTemplate } from './embedded-template.js';

/**
 * PGlite's PostgreSQL lives in this process's WebAssembly memory, which grows and never shrinks, so
 * its shared buffer pool is resident for good once filled: PostgreSQL's default of 128 MB was a third
 * of the whole process at rest (measured: 152 MB of WebAssembly memory right after opening, 30 MB
 * with 16 MB). A small pool costs little here: a page it misses is read from the files, which the
 * operating system caches anyway, with no disk access. Corpora that need a large cache belong on a
 * PostgreSQL server (DATABASE_URL).
 */
const embeddedSettings = [
  '-c',
  'shared_buffers=16MB',
  // PostgreSQL fills each new 16 MB WAL segment with zeros, in writes of many blocks at once, and
  // PGlite's WebAssembly runtime copies each such write into a new JavaScript buffer first: every new
  // segment left 16 MB of garbage outside the heap until a collection (the resident set rose by up
  // to 16 MB, a new segment every 11 s while the ×10 bench corpus was indexed). The zeros only make
  // sure the disk space is there before the log is written; off, PostgreSQL writes the segment's last
  // byte instead. PGlite runs with fsync off anyway, and recycled segments (embedded-checkpoints.ts) are
  // not written anew either way.
  '-c',
  'wal_init_zero=off',
  // After each checkpoint PostgreSQL logs the whole page the first time it changes, so that a page
  // torn by a crash of the operating system mid-write can be restored. An HNSW insert changes pages
  // all over the graph, and with checkpoints every 64 MB of log (embedded-checkpoints.ts) the ×10
  // bench corpus wrote those 64 MB every 10 s. PGlite runs with fsync off, so a crash of the
  // operating system can lose its recent writes anyway, page images or not; a crash of the process
  // itself tears no page (every write has reached the operating system when it returns).
  '-c',
  'full_page_writes=off',
];

/** How DocQA opens PGlite, here and in the child process that creates a new database. */
export function embeddedOptions(pgDir: string | undefined): PGliteOptions<{ vector: typeof vector }> {
  return {
    ...(pgDir ? { dataDir: pgDir } : {}),
    extensions: { vector },
    startParams: [...PGlite.defaultStartParams, ...embeddedSettings],
  };
}

/**
 * Creates a new embedded database in `pgDir`, unless one is there: from the template the build wrote
 * (embedded-template.ts) when there is one for this PGlite, else in a short-lived child process.
 * PGlite creates a database by starting a second, in-memory instance, running initdb in it and
 * copying its files out: measured, the process peaks at about 750 MB and keeps about 170 MB of it
 * for good (freed native memory the allocator does not give back). Done in a child, that is the
 * child's, gone when it exits; the server then only opens an existing database. `template` names
 * another template file, or null to create the database with initdb whatever the build left.
 */
export async function createEmbeddedDatabase(
  pgDir: string,
  template: string | null = embeddedTemplatePath(),
): Promise<void> {
  if (fs.existsSync(path.join(pgDir, 'PG_VERSION'))) return;
  if (template !== null && fs.existsSync(template)) return await unpackEmbeddedTemplate(template, pgDir);
  // The sibling module, .ts under tsx (the child inherits the loader through execArgv) or .js once compiled.
  const entry = new URL(
    `./create-embedded-database${path.extname(new URL(import.meta.url).pathname)}`,
    import.meta.url,
  );
  // A debugger flag would make the child fight the parent for its port. Optimised WebAssembly only: the
  // child compiles PGlite for two instances and runs initdb alone (measured peak 740 MB, not 850).
  const execArgv = [...process.execArgv.filter((flag) => !/^--inspect/.test(flag)), '--no-liftoff'];
  await new Promise<void>((resolve, reject) => {
    const child = fork(entry, [pgDir], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (piece: Buffer) => {
      stderr = (stderr + piece.toString('utf8')).slice(-4000);
    });
    child.once('error', reject);
    // 'close', not 'exit': by then stderr has been read to its end.
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `creating the database ${signal ? `was stopped by ${signal}` : `failed (exit code ${code})`}${stderr.trim() ? `: ${stderr.trim()}` : ''}`,
          ),
        );
    });
  });
}
