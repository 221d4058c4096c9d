import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startModelFileServer,
  writeTinyBertEmbeddingModel,
  writeTinyBertRerankerModel,
  writeTinyLlamaChatModel,
  type ModelFileServer,
} from '@docqa/plugin-testkit';
import { createModelsModule } from '@docqa/core/modules';
import { modelsTokens, type ModelPurpose, type ModelRuntime } from '@docqa/core/models';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

/** Generated GGUF files served from loopback, and a catalogue that points at them. */
export interface ModelFixtures {
  dir: string;
  files: ModelFileServer;
  cataloguePath: string;
  /** Source files by catalogue name. */
  sources: Record<string, string>;
  close(): Promise<void>;
}

/**
 * tiny-chat-a (context 2048) and tiny-chat-b (1024) are chat models, tiny-bert-48 an embedding
 * model (48 dimensions), tiny-reranker a cross-encoder; tampered points at tiny-chat-a's bytes with a wrong SHA-256. The two
 * recommended entries are what `docqa init` offers.
 */
export async function createModelFixtures(): Promise<ModelFixtures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-models-'));
  fs.mkdirSync(path.join(dir, 'source'));
  const source = (name: string) => path.join(dir, 'source', `${name}.gguf`);
  await writeTinyLlamaChatModel(source('tiny-chat-a'), { contextLength: 2048, name: 'docqa-tiny-chat-a' });
  await writeTinyLlamaChatModel(source('tiny-chat-b'), { contextLength: 1024, name: 'docqa-tiny-chat-b', seed: 2 });
  await writeTinyBertEmbeddingModel(source('tiny-bert-48'), { dimensions: 48 });
  await writeTinyBertRerankerModel(source('tiny-reranker'));
  const files = await startModelFileServer();
  const entry = async (name: string, purpose: 'chat' | 'embedding' | 'reranking', extra: Json = {}) => ({
    name,
    purpose,
    source: files.serve(`${name}.gguf`, source(name)),
    file: `${name}.gguf`,
    size_bytes: fs.statSync(source(name)).size,
    quantization: 'F32',
    license: 'Apache-2.0',
    sha256: crypto
      .createHash('sha256')
      .update(fs.readFileSync(source(name)))
      .digest('hex'),
    verified: true,
    ...extra,
  });
  const catalogue = {
    version: 1,
    models: [
      await entry('tiny-chat-a', 'chat', { recommended: true, context_length: 2048, size: '0.5 MB' }),
      await entry('tiny-chat-b', 'chat', { context_length: 1024, license: 'MIT' }),
      await entry('tiny-bert-48', 'embedding', { recommended: true, dimensions: 48 }),
      await entry('tiny-reranker', 'reranking'),
      { ...(await entry('tiny-chat-a', 'chat')), name: 'tampered', file: 'tampered.gguf', sha256: '0'.repeat(64) },
    ],
  };
  const cataloguePath = path.join(dir, 'catalogue.json');
  fs.writeFileSync(cataloguePath, JSON.stringify(catalogue, null, 2));
  return {
    dir,
    files,
    cataloguePath,
    sources: {
      'tiny-chat-a': source('tiny-chat-a'),
      'tiny-chat-b': source('tiny-chat-b'),
      'tiny-bert-48': source('tiny-bert-48'),
      'tiny-reranker': source('tiny-reranker'),
    },
    async close() {
      await files.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ModelsTestServer extends SearchTestServer {
  modelsDir: string;
  runtime: ModelRuntime;
  logs: string[];
  /** What the server logged while it started, before the test's runtime took over. */
  startupLogs: string[];
  /** Polls a job until it has finished; answers it. */
  waitForJob(id: string): Promise<Json>;
}

/**
 * The standard server (extractive chat, the tiny 32-dimension embedder), its model routes, queue
 * and worker, with a model runtime that notices switches quickly.
 */
export async function startModelsServer(
  fixtures: ModelFixtures,
  env: Record<string, string> = {},
): Promise<ModelsTestServer> {
  const modelsDir = path.join(fixtures.dir, `models-${Date.now()}`);
  const logs: string[] = [];
  const t = await startSearchServer({
    plan: 'FREE',
    embedder: true,
    env: {
      MODELS_DIR: modelsDir,
      MODELS_CATALOGUE: fixtures.cataloguePath,
      N_CTX: '8192',
      N_THREADS: '1',
      LOG_LEVEL: 'WARNING',
      // The model files are served from loopback, which only OUTBOUND_ALLOW opens to the server.
      OUTBOUND_ALLOW: '127.0.0.1',
      ...env,
    },
    server: {
      logDestination: { write: (line: string) => void logs.push(line) },
      // The standard module polls every 3 s; tests notice another replica's switch within 0.2 s.
      modules: [createModelsModule({ pollSeconds: 0.2, retireGraceMs: 50 })],
    },
  });
  const startupLogs = [...logs];
  const runtime = t.server.kernel.resolve(modelsTokens.runtime);
  const waitForJob = async (id: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = (await t.call('GET', `/api/jobs/${id}`, t.admin)).body;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} is still ${job.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    ...t,
    modelsDir,
    runtime,
    logs,
    startupLogs,
    waitForJob,
    stop: () => t.stop(),
  };
}

/** Writes the active_model row as `docqa models use` on another replica does; this one finds it by polling. */
export async function writeActiveModel(
  server: SearchTestServer['server'],
  purpose: ModelPurpose,
  model: { name: string; file: string } | null,
  actor: string,
): Promise<void> {
  if (model === null) {
    await server.kernel.db.query('delete from active_model where purpose = $1', [purpose]);
    return;
  }
  await server.kernel.db.query(
    `insert into active_model (purpose, name, file, updated_by) values ($1, $2, $3, $4)
     on conflict (purpose) do update set name = excluded.name, file = excluded.file, updated_by = excluded.updated_by`,
    [purpose, model.name, model.file, actor],
  );
}
