import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { generateLicenseKeyPair, signLicense } from '@docqa/plugin-license-ed25519';
import { baseEnv, serveCli, type ServingCli } from './cli.js';

/** Why the suites with several DocQA processes are skipped without a PostgreSQL server. */
export const needsPostgres =
  'set TEST_DATABASE_URL: several DocQA processes share one PostgreSQL ' +
  'server (the embedded database serves one process)';

/** describe() when TEST_DATABASE_URL names a server; otherwise skipped, with the reason in its title. */
export function describeOnPostgres(title: string, body: (this: Mocha.Suite) => void, reason = needsPostgres): void {
  if (process.env.TEST_DATABASE_URL) describe(title, body);
  else describe.skip(`${title} (skipped: ${reason})`, body);
}

export const adminPassword = 'admin-password-1';

/**
 * One DocQA installation of several `docqa serve` processes, as on several machines: one fresh
 * PostgreSQL database, and one DOCQA_DATA_DIR that every process shares (uploaded bytes and connector
 * state live there, so in production it is a shared volume). `docs` is CONNECTOR_ALLOWED_PATHS.
 */
export class Deployment {
  readonly processes: ServingCli[] = [];
  readonly #pool: pg.Pool;
  /** Starts still in flight when a test fails: dispose() waits for them, so none is left running. */
  readonly #starting: Array<Promise<unknown>> = [];

  private constructor(
    readonly dir: string,
    readonly docs: string,
    readonly databaseUrl: string,
    private readonly dropDatabase: () => Promise<void>,
    private readonly license: { LICENSE_KEY: string; LICENSE_PUBLIC_KEY: string },
  ) {
    this.#pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }

  static async create(name: string): Promise<Deployment> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `docqa-e2e-${name}-`));
    const docs = path.join(dir, 'docs');
    fs.mkdirSync(docs);
    const database = await createTemporaryDatabase(process.env.TEST_DATABASE_URL as string);
    return new Deployment(dir, docs, database.url, database.drop, enterpriseLicense());
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return baseEnv({
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DEFAULT_ADMIN_PASSWORD: adminPassword,
      DATABASE_URL: this.databaseUrl,
      DOCQA_DATA_DIR: path.join(this.dir, 'data'),
      CONNECTOR_ALLOWED_PATHS: this.docs,
      PORT: '0',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      ...this.license,
      ...extra,
    });
  }

  /** Starts `docqa serve` with these arguments (`--role worker`); stopped by dispose(). */
  start(args: string[] = [], extra: Record<string, string> = {}): Promise<ServingCli> {
    const starting = serveCli({ cwd: this.dir, env: this.env(extra), args, timeoutMs: 90_000 }).then((started) => {
      this.processes.push(started);
      return started;
    });
    this.#starting.push(starting.catch(() => undefined));
    return starting;
  }

  /** Reads the shared database directly, to check what the API does not show (execution counts). */
  async sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await this.#pool.query<R>(text, values)).rows;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.#starting);
    for (const running of this.processes) {
      if (running.child.exitCode === null && running.child.signalCode === null) await running.stop('SIGTERM');
    }
    await this.#pool.end();
    await this.dropDatabase();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * An ENTERPRISE license (no document limits; schedules) signed with a key of our own, given as an
 * operator would: LICENSE_KEY, and LICENSE_PUBLIC_KEY in place of the vendor's key.
 */
function enterpriseLicense(): { LICENSE_KEY: string; LICENSE_PUBLIC_KEY: string } {
  const keys = generateLicenseKeyPair();
  const now = Math.floor(Date.now() / 1000);
  const key = signLicense(keys.privateKeyPem, {
    plan: 'ENTERPRISE',
    licensee: 'end-to-end tests',
    id: 'e2e',
    iat: now,
    exp: now + 24 * 3600,
  });
  return { LICENSE_KEY: key, LICENSE_PUBLIC_KEY: keys.publicKeyPem };
}

/** Writes `count` small text files of distinct content under `dir` (100 to a folder). */
export function writeTextFiles(dir: string, count: number, words = 40): void {
  for (let i = 0; i < count; i++) {
    const folder = path.join(dir, `part-${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) fs.mkdirSync(folder, { recursive: true });
    const text =
      `Document ${i} of ${count}. ` + Array.from({ length: words }, (_, w) => `word${(i * 7 + w) % 997}`).join(' ');
    fs.writeFileSync(path.join(folder, `file-${i}.txt`), `${text}\n`);
  }
}
