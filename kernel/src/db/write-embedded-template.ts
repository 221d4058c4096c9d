/**
 * `node kernel/dist/db/write-embedded-template.js [directory]`: the build's step that writes the
 * template of a new embedded database (see embedded-template.ts) next to the compiled kernel (or into
 * `directory`), unless the one for this PGlite version is already there. Templates of other PGlite
 * versions are removed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { embeddedOptions } from './embedded-database.js';
import { embeddedTemplatePath } from './embedded-template.js';
import { writeTarGz } from './tar.js';

const file = process.argv[2] ? embeddedTemplatePath(path.resolve(process.argv[2])) : embeddedTemplatePath();
const directory = path.dirname(file);
for (const name of fs.readdirSync(directory)) {
  if (/^embedded-template-pglite-.*\.tar\.gz$/.test(name) && name !== path.basename(file))
    fs.rmSync(path.join(directory, name));
}
if (!fs.existsSync(file)) {
  // Created on disk and closed, so the files are those of a clean shutdown: a copy opens without
  // recovery (PGlite's own dumpDataDir copies a running database, whose first open then replays
  // its log, measured 28 MB more memory for good).
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-template-'));
  try {
    const database = await PGlite.create(embeddedOptions(pgDir));
    await database.close();
    const temporary = `${file}.${process.pid}.tmp`;
    await writeTarGz(pgDir, temporary);
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
  }
}
