import fs from 'node:fs';
import path from 'node:path';
import { DocqaError } from '@docqa/plugin-api';

export interface DirectoryLock {
  release(): void;
}

/**
 * The embedded database must have one process at a time: two PGlite instances on one directory
 * corrupt it. A lock file with the owner's pid; a lock whose process is gone is taken over.
 */
export function acquireDirectoryLock(directory: string): DirectoryLock {
  const file = path.join(directory, 'docqa.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          fs.rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(file, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && (owner === process.pid || isAlive(owner))) {
        throw new DocqaError(
          'unavailable',
          `The embedded database in ${directory} is in use by process ${owner}; stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.`,
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DocqaError('unavailable', `Cannot lock the embedded database directory ${directory}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
