import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readTarGz } from './tar.js';

/**
 * A new embedded database, made once at build time and copied for every new installation.
 *
 * Creating one with PGlite runs initdb in a second WebAssembly instance: a process of about 490 MB
 * for 30–80 s on two cores (measured on this machine). What initdb writes does not depend on the
 * installation, so `npm run build` runs it once, shuts the database down cleanly and keeps its data
 * directory as a tarball (4.5 MB). A first start unpacks it with Node alone, in about a second and
 * with a few chunks of memory. The template belongs to the PGlite build that wrote it, so its name
 * carries PGlite's version: after an upgrade of PGlite a stale template is ignored (and the next
 * build writes a new one).
 */
export function embeddedTemplatePath(directory = path.dirname(fileURLToPath(import.meta.url))): string {
  return path.join(directory, `embedded-template-pglite-${pgliteVersion()}.tar.gz`);
}

function pgliteVersion(): string {
  // package.json is not among PGlite's exports: found from its resolved entry point instead.
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the package.json of @electric-sql/pglite');
    dir = parent;
  }
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Unpacks the template into `pgDir` (an empty directory but for DocQA's lock file), streaming: the
 * data directory is 40 MB unpacked, and one buffer that size stayed in the process for good (freed
 * memory the allocator keeps; measured 80 MB more at rest). PG_VERSION, by which PostgreSQL and
 * PGlite recognise a data directory, is written last: unpacking that stops half way leaves no
 * database that looks whole, and the next start unpacks again over it.
 */
export async function unpackEmbeddedTemplate(file: string, pgDir: string): Promise<void> {
  let fd: number | null = null;
  let version: Buffer[] | null = null;
  const close = () => {
    if (fd !== null) fs.closeSync(fd);
    fd = null;
  };
  try {
    await readTarGz(
      file,
      (entry) => {
        close();
        const target = path.join(pgDir, entry.name);
        if (entry.type === 'directory') fs.mkdirSync(target, { recursive: true, mode: 0o700 });
        else if (entry.name === 'PG_VERSION') version = [];
        else {
          fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
          fd = fs.openSync(target, 'w', entry.mode);
        }
      },
      (piece) => {
        if (fd !== null) fs.writeSync(fd, piece);
        else version?.push(Buffer.from(piece));
      },
    );
  } finally {
    close();
  }
  if (!version) throw new Error(`${file} is not a database template: it has no PG_VERSION`);
  fs.writeFileSync(path.join(pgDir, 'PG_VERSION'), Buffer.concat(version), { mode: 0o600 });
}
