import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { definePreset, type Plan } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import { startServer, type RunningServer, type ServerOptions } from '../server.js';
import { standardPreset } from '../presets/standard.js';
import { withoutLicenseGate } from './standard-with-license.js';
import { licenseStandIn } from './license-stand-in.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** A license gate of a fixed plan, standing in for a signed license. */
function licenseOf(plan: Plan | (() => Plan)) {
  return licenseStandIn(() => ({
    plan: typeof plan === 'function' ? plan() : plan,
    limits: { documents: null, fileSizeBytes: null, storageBytes: null },
  }));
}

export interface SearchTestServer {
  server: RunningServer;
  admin: string;
  call(method: string, route: string, token: string | null, body?: unknown): Promise<{ status: number; body: Json }>;
  login(username: string, password: string): Promise<string>;
  /** Uploads files (text or bytes) and waits until every one is indexed; answers their ids by name. */
  uploadTexts(files: Record<string, string | Buffer>): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** The standard preset with a license stand-in, with or without the tiny generated embedding model. */
export interface SearchServerOptions {
  /** The plan, or a function read at every check (a test that switches plans). */
  plan: Plan | (() => Plan);
  embedder: boolean;
  /** Variables on top of the test defaults (LLM_BACKEND, N_CTX, RAG_* …). */
  env?: Record<string, string>;
  /** Plugins besides the standard preset's and the license stand-in (a test connector). */
  plugins?: ReturnType<typeof standardPreset.plugins>;
  /** Routes, migrations and a log destination not (yet) in the product's own tables. */
  server?: Pick<ServerOptions, 'extraRoutes' | 'migrations' | 'logDestination' | 'modules'>;
}

export async function startSearchServer(options: SearchServerOptions): Promise<SearchTestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-search-'));
  const model = options.embedder
    ? await writeTinyBertEmbeddingModel(path.join(dataDir, 'tiny-embedder.gguf'), { dimensions: 32 })
    : null;
  const database = process.env.TEST_DATABASE_URL ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL) : null;
  const license = licenseOf(options.plan);
  const server = await startServer({
    env: {
      ...testSecrets,
      DOCQA_DATA_DIR: dataDir,
      DOCQA_SECRETS_DIR: dataDir,
      LOG_LEVEL: 'ERROR',
      DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
      RAG_MIN_CHUNK_LENGTH: '1',
      ...(model ? { EMBEDDING_MODEL_PATH: model.path } : {}),
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...options.env,
    },
    cwd: dataDir,
    inMemoryDatabase: database === null,
    presets: {
      standard: definePreset({
        id: 'standard',
        description: 'standard + license stand-in',
        plugins: (context) => [
          ...withoutLicenseGate(standardPreset.plugins(context)),
          ...(options.plugins ?? []),
          { plugin: license },
        ],
      }),
    },
    port: 0,
    host: '127.0.0.1',
    ...options.server,
  });
  const call = async (method: string, route: string, token: string | null, body?: unknown) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const login = async (username: string, password: string) =>
    (await call('POST', '/api/auth/login', null, { username, password })).body.access_token as string;
  const admin = await login('admin', 'admin-password-1');
  const uploadTexts = async (files: Record<string, string | Buffer>) => {
    const form = new FormData();
    for (const [name, text] of Object.entries(files))
      form.append('file', new Blob([typeof text === 'string' ? Buffer.from(text) : text]), name);
    const res = await fetch(`${server.url}/api/docs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${admin}` },
    });
    if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    const documents = ((await res.json()) as Json).documents as Json[];
    const deadline = Date.now() + 60_000;
    for (const document of documents) {
      while (
        (await server.kernel.db.query<{ status: string }>('select status from document where id = $1', [document.id]))
          .rows[0]?.status !== 'indexed'
      ) {
        if (Date.now() > deadline) throw new Error(`${document.filename} was not indexed in time`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return Object.fromEntries(documents.map((document) => [document.filename as string, document.id as string]));
  };
  const stop = async () => {
    await server.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { server, admin, call, login, uploadTexts, stop };
}
