// Records the commit and build time next to the server package, for GET /api/version.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

// An image build has no .git: it passes both as build arguments (docker/Dockerfile).
let commit = process.env.DOCQA_COMMIT || 'unknown';
if (!process.env.DOCQA_COMMIT) {
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // Not a git checkout (an unpacked release): keep "unknown".
  }
}
const info = { commit, build_date: process.env.DOCQA_BUILD_DATE || new Date().toISOString() };
fs.writeFileSync(new URL('../packages/server/build-info.json', import.meta.url), `${JSON.stringify(info, null, 2)}\n`);
