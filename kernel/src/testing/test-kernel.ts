import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import {
  defineModule,
  definePreset,
  type AnyModule,
  type PluginEntry,
  type Preset,
  type Token,
} from '@docqa/plugin-api';
import { Kernel, type KernelOptions } from '../kernel.js';
import { Writable } from 'node:stream';

export interface TestKernelOptions {
  plugins?: PluginEntry[];
  /** Extra environment; the test keys and a temporary data directory are set already. */
  env?: Record<string, string>;
  /** Collects log lines instead of printing them. */
  logs?: string[];
  /** The application's schema migrations to apply (the server's identity tables, ...). */
  migrations?: KernelOptions['migrations'];
  /** Domain modules to plan and start with the plugins. */
  modules?: KernelOptions['modules'];
  /** What the test preset adds or leaves out of `modules`, as an edition's preset does. */
  edition?: Pick<Preset, 'modules' | 'withoutModules'>;
  /** Where audit events go (the log by default); a test hands a recorder to see them. */
  audit?: KernelOptions['audit'];
  /** Keep the embedded database on disk in env.DOCQA_DATA_DIR (restart tests); the caller removes it. */
  persistent?: boolean;
}

export interface TestKernel extends Kernel {
  /** Stops the kernel and removes what the test created (the temporary database). */
  dispose(): Promise<void>;
}

/** A throwaway test secret: long enough for the checks, obviously not for production. */
export const testSecrets = {
  JWT_SECRET_KEY: 'test-jwt-secret-key-0123456789abcdef0123456789',
  MFA_ENCRYPTION_KEY: 'test-mfa-encryption-key-0123456789abcdef012345',
};

/**
 * Starts a real kernel for a test: the embedded database in memory, or, when TEST_DATABASE_URL
 * names a PostgreSQL server, a fresh database created on it for this kernel and dropped after.
 */
export async function startTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const ownDataDir = !(options.persistent && options.env?.DOCQA_DATA_DIR);
  const dataDir = ownDataDir
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-test-'))
    : (options.env?.DOCQA_DATA_DIR as string);
  const database = process.env.TEST_DATABASE_URL ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL) : null;
  const removeDataDir = () => ownDataDir && fs.rmSync(dataDir, { recursive: true, force: true });
  const logs = options.logs;
  const kernel = (await Kernel.start({
    env: {
      ...testSecrets,
      DOCQA_ENV: 'test',
      DOCQA_PRESET: 'test',
      DOCQA_DATA_DIR: dataDir,
      DOCQA_SECRETS_DIR: path.join(dataDir, 'no-secrets'),
      LOG_LEVEL: 'WARNING',
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...options.env,
    },
    cwd: dataDir,
    presets: {
      test: definePreset({
        id: 'test',
        description: 'plugins under test',
        plugins: () => options.plugins ?? [],
        ...options.edition,
      }),
    },
    inMemoryDatabase: database === null && !options.persistent,
    ...(options.migrations ? { migrations: options.migrations } : {}),
    ...(options.modules ? { modules: options.modules } : {}),
    ...(options.audit ? { audit: options.audit } : {}),
    logDestination: collect(logs ?? []),
  }).catch(async (error) => {
    await database?.drop();
    removeDataDir();
    throw error;
  })) as TestKernel;
  kernel.dispose = async () => {
    await kernel.stop();
    await database?.drop();
    removeDataDir();
  };
  return kernel;
}

function collect(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
}

/** Creates `<db>_t<random>` next to the database the URL names; drop() removes it again. */
export async function createTemporaryDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(serverUrl);
  const name = `${base.pathname.slice(1) || 'docqa'}_t${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A value a test puts in place of a module it does not start: the token and what it resolves to. */
export interface ProvidedValue<T = unknown> {
  token: Token<T>;
  value: T;
}

export function provide<T>(token: Token<T>, value: T): ProvidedValue<T> {
  return { token, value };
}

/**
 * Starts a real kernel with just the modules under test (and their plugins). What they need from
 * modules left out comes from `provide`: values registered under those modules' tokens, so a module
 * is tested without the HTTP server and without the rest of the domain.
 */
export function startTestModules(
  options: TestKernelOptions & { modules: readonly AnyModule[]; provide?: readonly ProvidedValue[] },
): Promise<TestKernel> {
  const provided = options.provide ?? [];
  const standIns = defineModule({
    id: 'test-provided',
    deps: {},
    provides: Object.fromEntries(provided.map((entry, index) => [`value${index}`, entry.token])),
    init: () => Object.fromEntries(provided.map((entry, index) => [`value${index}`, entry.value])) as never,
  });
  return startTestKernel({
    ...options,
    modules: provided.length > 0 ? [standIns, ...options.modules] : options.modules,
  });
}
