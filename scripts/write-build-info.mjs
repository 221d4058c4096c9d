// Records the commit and build time next to the server package, for GET /api/version.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  // Not a git checkout (an unpacked release): keep "unknown".
}
const info = { commit, build_date: new Date().toISOString() };
fs.writeFileSync(new URL('../packages/server/build-info.json', import.meta.url), `${JSON.stringify(info, null, 2)}\n`);
