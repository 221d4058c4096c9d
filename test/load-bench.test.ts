import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scifact = path.resolve(root, '../shared/data/beir/scifact');

interface BenchRow {
  name: string;
  clients: number;
  requests: number;
  errors: number;
  rps: number;
  p99: number;
  cpuMsPerRequest: number;
}

// npm run bench:load at its smallest (a few documents, two clients, a second per endpoint), so the
// benchmark keeps working as the API changes; the figures themselves are for real runs.
describe('npm run bench:load (smoke)', function () {
  this.timeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-load-bench-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('measures every endpoint and the bare baseline, without errors, on the database under test', async function () {
    if (!fs.existsSync(scifact)) this.skip(); // the data sets sit beside the repository (../shared/data)
    const json = path.join(dir, 'load.json');
    const args = ['--clients', '2', '--seconds', '1', '--warmup', '0', '--documents', '12', '--json', json];
    if (process.env.TEST_DATABASE_URL) args.push('--database-url', process.env.TEST_DATABASE_URL);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=docqa-source', path.join(root, 'packages/server/bench/load.ts'), ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: '' }, maxBuffer: 1 << 20 },
    );
    expect(stdout).to.include(process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite');
    const { rows, versionRounds } = JSON.parse(fs.readFileSync(json, 'utf8')) as {
      rows: BenchRow[];
      versionRounds: { clients: number; ratios: number[]; median: number }[];
    };
    expect(rows.map((row) => row.name)).to.deep.equal([
      'bare node:http',
      'GET /api/version',
      'POST /api/search',
      'POST /api/chat (JSON)',
      'POST /api/chat (SSE)',
      'GET /api/docs (50 items)',
    ]);
    expect(versionRounds.map((round) => [round.clients, round.ratios.length])).to.deep.equal([[2, 3]]);
    for (const value of [...(versionRounds[0]?.ratios ?? []), versionRounds[0]?.median]) expect(value).to.be.above(0);
    expect(stdout).to.match(/GET \/api\/version ×bare in 3 rounds, each pair back to back: [\d. ]+; median/);
    for (const row of rows) {
      expect(row.requests, row.name).to.be.greaterThan(0);
      expect(row.errors, row.name).to.equal(0);
      expect(row.cpuMsPerRequest, row.name).to.be.greaterThan(0);
    }
  });
});
