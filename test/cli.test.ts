import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parseEnv } from 'node:util';
import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { baseEnv, runCli, serveCli } from './support/cli.js';

// Response bodies are checked field by field, so a loose JSON type is enough here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (res: Response) => res.json() as Promise<Record<string, any>>;

const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** A database for one started server: a fresh one on TEST_DATABASE_URL's server, else embedded. */
async function databaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) return { env: {}, drop: async () => undefined };
  const database = await createTemporaryDatabase(process.env.TEST_DATABASE_URL);
  return { env: { DATABASE_URL: database.url }, drop: database.drop };
}

describe('docqa command (end to end)', function () {
  this.timeout(120_000);

  describe('init, then serve on the written .env', () => {
    const dir = tempDir('docqa-e2e-');
    let database: Awaited<ReturnType<typeof databaseEnv>>;
    before(async () => {
      database = await databaseEnv();
    });
    after(async () => {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('init writes .env with generated secrets, shows the admin password once, and never overwrites', async () => {
      const first = await runCli(['init'], { cwd: dir, env: baseEnv() });
      expect(first.code).to.equal(0);
      const written = parseEnv(fs.readFileSync(path.join(dir, '.env'), 'utf8'));
      expect(written.JWT_SECRET_KEY).to.have.length.of.at.least(60);
      expect(written.MFA_ENCRYPTION_KEY).to.have.length.of.at.least(40);
      expect(written.DEFAULT_ADMIN_PASSWORD).to.match(/^[A-Za-z0-9]{20}$/);
      expect(first.stdout).to.include(written.DEFAULT_ADMIN_PASSWORD);
      expect(fs.statSync(path.join(dir, '.env')).mode & 0o777).to.equal(0o600);

      const again = await runCli(['init'], { cwd: dir, env: baseEnv() });
      expect(again.code).to.equal(1);
      expect(again.stdout).to.include('exists already');
      const ifMissing = await runCli(['init', '--if-missing'], { cwd: dir, env: baseEnv() });
      expect(ifMissing.code).to.equal(0);
      expect(parseEnv(fs.readFileSync(path.join(dir, '.env'), 'utf8')).JWT_SECRET_KEY).to.equal(written.JWT_SECRET_KEY);
    });

    it('serve answers /api/health, writes JSON logs, and stops cleanly on SIGTERM', async () => {
      const server = await serveCli({
        cwd: dir,
        env: baseEnv({ PORT: '0', ENABLE_API_DOCS: 'true', ...database.env }),
      });
      try {
        const health = await fetch(`${server.url}/api/health`);
        expect(health.status).to.equal(200);
        const body = await readJson(health);
        expect(body.status).to.equal('ok');
        expect(body.checks.database).to.equal('ok');
        const spec = await fetch(`${server.url}/api/openapi.json`);
        expect(spec.status).to.equal(200);
        expect((await readJson(spec)).openapi).to.equal('3.1.0');
        for (const page of ['/api/swagger', '/api/redoc', '/api/redoc/redoc.standalone.js', '/docs']) {
          expect((await fetch(server.url + page)).status, page).to.equal(200);
        }
      } finally {
        expect(await server.stop('SIGTERM')).to.equal(0);
      }
      const lines = server
        .output()
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      expect(lines.length).to.be.greaterThan(2);
      const parsed = lines.map((line) => JSON.parse(line) as { level: string; msg: string });
      expect(parsed.map((line) => line.msg)).to.include('kernel stopped');
      // Started bare, not through npm start or the image.
      const launchWarning = parsed.find((line) => line.msg.startsWith('started without the memory settings'));
      expect(launchWarning?.msg).to.match(
        /^started without the memory settings MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_, --max-semi-space-size, --no-memory-reducer, which npm start/,
      );
    });
  });

  describe('BACKEND_WORKERS', () => {
    const dir = tempDir('docqa-e2e-workers-');
    const secrets = {
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
      PORT: '0',
      BACKEND_WORKERS: '2',
    };
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('runs that many server processes on PostgreSQL, migrating once, and stops them all', async function () {
      if (!process.env.TEST_DATABASE_URL) this.skip(); // needs a server database; the next test covers embedded
      const database = await databaseEnv();
      const server = await serveCli({ cwd: dir, env: baseEnv({ ...secrets, ...database.env }) });
      try {
        const deadline = Date.now() + 60_000;
        const listening = () =>
          [...server.output().matchAll(/"pid":(\d+)[^\n]*DocQA is listening/g)].map((match) => match[1]);
        while (new Set(listening()).size < 2 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 200));
        expect(new Set(listening()).size).to.equal(2);
        expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
        expect(server.output().match(/applied \d+ database migration/g) ?? []).to.have.length(1);
      } finally {
        expect(await server.stop('SIGTERM')).to.equal(0);
        await database.drop();
      }
    });

    it('runs one process on the embedded database and says why', async () => {
      const server = await serveCli({ cwd: dir, env: baseEnv(secrets) });
      try {
        expect(server.output()).to.include('BACKEND_WORKERS=2 needs DATABASE_URL');
        expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
      } finally {
        expect(await server.stop('SIGTERM')).to.equal(0);
      }
    });
  });

  describe('start-up refusals', () => {
    const dir = tempDir('docqa-e2e-bad-');
    const secrets = {
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
    };
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('an invalid variable stops start-up with a line naming it', async () => {
      const result = await runCli(['serve'], { cwd: dir, env: baseEnv({ ...secrets, N_THREADS: 'abc' }) });
      expect(result.code).to.not.equal(0);
      expect(result.stderr.trim()).to.match(/^Configuration error: N_THREADS="abc" must be a whole number/);
    });

    it('refuses to start without JWT_SECRET_KEY and MFA_ENCRYPTION_KEY', async () => {
      const result = await runCli(['serve'], { cwd: dir, env: baseEnv({ DOCQA_DATA_DIR: secrets.DOCQA_DATA_DIR }) });
      expect(result.code).to.not.equal(0);
      expect(result.stderr).to.include('JWT_SECRET_KEY is required').and.include('MFA_ENCRYPTION_KEY is required');
    });

    it('a plugin with invalid options and a second vector store each stop start-up naming the instance', async () => {
      const configFile = path.join(dir, 'docqa.config.json');
      fs.writeFileSync(
        configFile,
        JSON.stringify({
          plugins: [
            { use: '@docqa/example-connector-template', instance: 'feeds', options: { maxDocuments: 'many' } },
            { use: '@docqa/plugin-vectorstore-pgvector', instance: 'second-vectors' },
          ],
        }),
      );
      const result = await runCli(['serve'], { cwd: dir, env: baseEnv({ ...secrets, DOCQA_CONFIG_FILE: configFile }) });
      expect(result.code).to.not.equal(0);
      const lines = result.stderr.trim().split('\n');
      expect(lines).to.have.length(2);
      expect(lines[0]).to.include("plugin instance 'feeds' (connector-template)").and.include('maxDocuments');
      expect(lines[1])
        .to.include("plugin instance 'second-vectors' (vectorstore-pgvector)")
        .and.include('a second vectorStore plugin');
    });

    it('loads examples/connector-template from the configuration file', async () => {
      const database = await databaseEnv();
      const configFile = path.join(dir, 'docqa.config.json');
      fs.writeFileSync(
        configFile,
        JSON.stringify({
          plugins: [{ use: '@docqa/example-connector-template', instance: 'feeds', options: { maxDocuments: 50 } }],
        }),
      );
      const server = await serveCli({
        cwd: dir,
        env: baseEnv({ ...secrets, DOCQA_CONFIG_FILE: configFile, PORT: '0', ...database.env }),
      });
      try {
        expect(server.output()).to.include('feeds:connector-template');
      } finally {
        expect(await server.stop('SIGINT')).to.equal(0);
        await database.drop();
      }
    });
  });
});
