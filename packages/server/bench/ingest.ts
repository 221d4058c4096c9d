/**
 * npm run bench:ingest [-- --scale N] — ingestion throughput on a generated Markdown corpus of
 * 20,000 × N chunks with metadata rules, through the standard plugins: each stage alone, (a)
 * extraction + rules + chunking, (b) embedding (the tiny random BERT of the plugin testkit through
 * embedder-llamacpp, one thread per core), (c) upsert into the pgvector store next to a raw binary
 * COPY of the same rows, (c′) the chunk rows with their BM25 postings (the ingest's closing
 * transaction, which none of the issue's three stages contains), then (d) the whole pipeline through the real path (a filesystem connector's
 * scan, the sync and ingest jobs) and peak RSS of this process and its children. PostgreSQL when
 * TEST_DATABASE_URL or DATABASE_URL is set (a temporary database is created next to it and dropped),
 * else the embedded PGlite on disk. Everything runs in this process except the PostgreSQL server (and
 * node-llama-cpp's child process that checks its binary, whose private memory counts in the start-up
 * peak). Each stage's CPU time too, and from it the fastest the whole pipeline could go if the
 * stages shared the cores perfectly (bench/cpu-meter.ts): the pipeline's figure is held against that
 * bound as well.
 *
 * The embedder gets the threads the standard preset gives it (presets/inference-threads.ts: one core
 * less than the machine's on the embedded database); BENCH_EMBED_THREADS overrides them,
 * BENCH_DIMENSIONS sets the vector size (384).
 * Everything runs as an operator runs the server: compiled, with the memory settings of `npm start`
 * and the image (the npm script's launch settings, runtime/memory-policy.ts, and the HEAP_GROWING_PERCENT policy).
 * `npm run bench:ingest` builds the server (dist/, and the embedded database's template) and this
 * bench (bench/tsconfig.json, into dist-bench/), so no TypeScript loader is in the process or in its
 * worker threads, which inherit it. Through tsx the server takes about 110 MB more just to load its
 * modules (measured: 293 MB against 185 MB), and 15 MB more per worker.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { definePreset, providerTokens, type EmbeddingSpace, type VectorStoreProvider } from '@docqa/plugin-api';
import embedderLlamacpp from '@docqa/plugin-embedder-llamacpp';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import { standardPreset } from '../dist/presets/standard.js';
import { startServer } from '../dist/server.js';
import { licenseStandIn } from '../dist/testing/license-stand-in.js';
import { applyMemoryPolicy, launchSettingValues } from '../dist/runtime/memory-policy.js';
import { withoutLicenseGate } from '../dist/testing/standard-with-license.js';
import { benchRules, writeCorpus } from './ingest-corpus.js';
import { copyAll, embedAll, extractAndChunk, upsertAll, writeChunksAll, type StageResult } from './ingest-stages.js';
import { describeBreakdown, mb, MemorySampler } from './memory-sampler.js';
import { CpuMeter, overlapBound } from './cpu-meter.js';

const scaleAt = process.argv.indexOf('--scale');
const scale = scaleAt > 0 ? Number(process.argv[scaleAt + 1]) : 1;
if (!(scale > 0)) throw new Error('--scale takes a positive number');
const targetChunks = 20_000 * scale;
/** 384 numbers a vector, as the usual small sentence models (all-MiniLM-L6-v2, bge-small) give. */
const dimensions = Number(process.env.BENCH_DIMENSIONS ?? 384);
const threadsOverride = process.env.BENCH_EMBED_THREADS ? Number(process.env.BENCH_EMBED_THREADS) : null;
const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const license = licenseStandIn(() => ({
  plan: 'PRO',
  limits: { documents: null, fileSizeBytes: null, storageBytes: null },
}));

const rate = (result: StageResult) => result.items / result.seconds;
/** Cores kept busy on average: the machine's busy time over the stage's time (this process's where /proc/stat is missing). */
const coresBusy = (result: StageResult) => (result.cpu.machine ?? result.cpu.process) / result.seconds;
const line = (label: string, result: StageResult, unit = 'chunks/s') =>
  console.log(
    `${label.padEnd(52)} ${rate(result).toFixed(0).padStart(8)} ${unit}  (${result.items} in ${result.seconds.toFixed(1)} s, ${coresBusy(result).toFixed(2)} cores busy)`,
  );
/** Milliseconds of CPU per chunk: the machine's, then this process's and its main thread's. */
const cpuLine = (label: string, result: StageResult) =>
  console.log(
    `${`CPU per chunk ${label}`.padEnd(52)} ${result.cpu.machine === null ? '     n/a' : `${((1000 * result.cpu.machine) / result.items).toFixed(2).padStart(8)} ms`}  (this process ${((1000 * result.cpu.process) / result.items).toFixed(2)} ms${result.cpu.mainThread === null ? '' : `, its main thread ${((1000 * result.cpu.mainThread) / result.items).toFixed(2)} ms`})`,
  );

async function main(): Promise<void> {
  // As `docqa` does before anything else (cli.ts).
  applyMemoryPolicy();
  const rss = new MemorySampler();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-bench-ingest-'));
  const dataDir = path.join(root, 'data');
  const database = serverUrl ? await createTemporaryDatabase(serverUrl) : null;
  const corpus = writeCorpus(path.join(root, 'corpus'), targetChunks);
  const model = await writeTinyBertEmbeddingModel(path.join(root, 'tiny-bert.gguf'), { dimensions });
  const files = listFiles(corpus.dir);
  const load = os.loadavg()[0]!;

  // The standard edition (its embedder from EMBEDDING_MODEL_PATH), with a license without limits.
  let threads = 0;
  const preset = definePreset({
    id: 'standard',
    description: 'standard, PRO stand-in',
    plugins: (context) => [
      ...withoutLicenseGate(standardPreset.plugins(context)).map((entry) => {
        if (entry.plugin !== embedderLlamacpp) return entry;
        const options = {
          ...(entry.options as { threads: number }),
          ...(threadsOverride === null ? {} : { threads: threadsOverride }),
        };
        threads = options.threads;
        return { ...entry, options };
      }),
      { plugin: license },
    ],
  });
  const server = await startServer({
    env: {
      ...testSecrets,
      DOCQA_DATA_DIR: dataDir,
      DOCQA_SECRETS_DIR: dataDir,
      LOG_LEVEL: 'ERROR',
      DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
      CONNECTOR_ALLOWED_PATHS: corpus.dir,
      EMBEDDING_MODEL_PATH: model.path,
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    cwd: dataDir,
    inMemoryDatabase: false,
    presets: { standard: preset },
    port: 0,
    host: '127.0.0.1',
  });
  try {
    const api = await signIn(server.url);
    const source = (await api('POST', '/api/connectors', {
      name: 'bench corpus',
      type: 'filesystem',
      config: { path: corpus.dir },
    })) as { id: string };
    for (const rule of benchRules) await api('POST', `/api/metadata/${source.id}/rules`, rule);
    const rules = await server.services.rules.rulesOf(source.id);
    const kernel = server.kernel;

    console.log(
      `Ingestion benchmark: ${kernel.db.mode === 'server' ? 'PostgreSQL' : 'embedded PGlite'}, scale ${scale}, ${os.availableParallelism()} cores, load average ${load.toFixed(2)} at start`,
    );
    console.log(
      `corpus: ${files.length} Markdown files, ${mb(corpus.bytes)}; ${benchRules.length} metadata rules; tiny BERT ${dimensions} dims on ${threads} thread${threads === 1 ? '' : 's'}${threadsOverride === null ? ' (as the preset gives it)' : ' (BENCH_EMBED_THREADS)'}; INDEX_EXTRACTION_WORKERS ${kernel.config.values.INDEX_EXTRACTION_WORKERS}, INDEX_UPSERT_BATCH_SIZE ${kernel.config.values.INDEX_UPSERT_BATCH_SIZE}`,
    );
    const launch = Object.entries(launchSettingValues(process.execArgv, process.env)).map(
      ([name, value]) => `${name} ${value ?? 'unset (not as npm start)'}`,
    );
    console.log(
      `memory settings (docs/operations.md, Memory): HEAP_GROWING_PERCENT ${kernel.config.values.HEAP_GROWING_PERCENT}, ${launch.join(', ')}`,
    );
    rss.phase('(a) extraction + rules + chunking', console.log);
    const chunksFile = path.join(root, 'chunks.jsonl');
    const extraction = await extractAndChunk(kernel, files, rules, server.services.rules.runner, chunksFile);
    line('(a) extraction + rules + chunking alone', extraction);
    rss.phase('(b) embedding', console.log);
    const vectorsFile = path.join(root, 'vectors.bin');
    const embedding = await embedAll(kernel, chunksFile, vectorsFile);
    line('(b) embedding alone', embedding);
    rss.phase('(c′) chunk rows + BM25 postings', console.log);
    const chunkRows = await writeChunksAll(kernel, chunksFile);
    line('(c′) chunk rows + BM25 postings alone', chunkRows);
    fs.rmSync(chunksFile);
    await maintainUntimed(kernel);
    rss.phase('(c) upsert', console.log);
    const store = kernel.resolve(providerTokens.vectorStore) as VectorStoreProvider;
    const upsertSpace: EmbeddingSpace = { model: 'bench-upsert', dimensions: embedding.space.dimensions };
    const copySpace: EmbeddingSpace = { model: 'bench-copy', dimensions: embedding.space.dimensions };
    const upsert = await upsertAll(kernel, vectorsFile, upsertSpace);
    line('(c) upsert alone (pgvector store)', upsert);
    rss.phase('    raw binary COPY', console.log);
    const copy = await copyAll(kernel, vectorsFile, copySpace, database ? null : path.join(dataDir, 'pgdata'));
    line('    raw binary COPY of the same rows, same index', copy, 'rows/s');
    await store.dropSpace(upsertSpace);
    await store.dropSpace(copySpace);
    fs.rmSync(vectorsFile);
    await maintainUntimed(kernel);

    rss.phase('(d) whole pipeline', console.log);
    const pipelineCpu = new CpuMeter();
    const stopPipelineCpu = pipelineCpu.start();
    const started = performance.now();
    const scan = (await api('POST', `/api/connectors/${source.id}/scan`)) as { job_id: string };
    const indexed = await waitUntilIndexed(kernel, api, scan.job_id);
    stopPipelineCpu();
    const pipeline = { seconds: (performance.now() - started) / 1000, items: indexed.chunks, cpu: pipelineCpu };
    const vectors = await store.count(embedding.space);
    rss.stop();

    const stages = {
      '(a) extraction + rules + chunking': extraction,
      '(b) embedding': embedding,
      '(c) upsert': upsert,
      '(c′) chunk rows + BM25 postings': chunkRows,
    };
    const [slowestName, slowest] = Object.entries(stages).sort(([, x], [, y]) => rate(x) - rate(y))[0]!;
    const peak = rss.peak;
    console.log(`summary (load average ${os.loadavg()[0]!.toFixed(2)} at the end):`);
    line('(a) extraction + rules + chunking alone', extraction);
    line('(b) embedding alone', embedding);
    line('(c) upsert alone (pgvector store)', upsert);
    line('(c′) chunk rows + BM25 postings alone', chunkRows);
    line('(d) whole pipeline (scan → sync → ingest jobs)', pipeline);
    line('    upsert, rows/s', upsert, 'rows/s');
    line('    raw binary COPY of the same rows, same index', copy, 'rows/s');
    console.log(
      `documents indexed ${indexed.documents}/${files.length}, failed ${indexed.failed}; vectors stored ${vectors} (chunks ${indexed.chunks})`,
    );
    // The embedded database's log stays bounded by the server's checkpoints (kernel/src/db/embedded-checkpoints.ts).
    if (!database)
      console.log(
        `embedded database on disk at the end: ${mb(diskBytes(path.join(dataDir, 'pgdata')))}, of which the write-ahead log (pg_wal) ${mb(diskBytes(path.join(dataDir, 'pgdata', 'pg_wal')))}`,
      );
    // What overlapping the stages can gain at most on this machine's cores (bench/cpu-meter.ts).
    for (const [name, stage] of Object.entries(stages)) cpuLine(name, stage);
    cpuLine('(d) whole pipeline', pipeline);
    const bound = overlapBound(Object.values(stages));
    if (bound !== null)
      console.log(
        `${`(d)'s bound on ${os.availableParallelism()} cores: cores ÷ Σ CPU per chunk of (a)–(c′)`.padEnd(52)} ${bound.toFixed(0).padStart(8)} chunks/s  (${(bound / rate(slowest)).toFixed(3)} × the slowest stage)`,
      );
    for (const [phase, at] of rss.peaks)
      console.log(`peak RSS ${phase.padEnd(38)} ${mb(at.rss).padStart(8)}  (${describeBreakdown(at)})`);
    // The sampler reads every 100 ms on the main thread, so it misses a short peak while a statement
    // or a garbage collection holds that thread; the kernel's high-water mark (this process, without
    // its children) misses none. The overall target is held against the higher of the two.
    const processPeak = process.resourceUsage().maxRSS * 1024;
    console.log(`peak RSS of the process (getrusage) ${mb(processPeak).padStart(27)}`);
    const ratio = (name: string, value: number, target: string, ok: boolean) =>
      console.log(`${name.padEnd(52)} ${value.toFixed(3).padStart(8)}  target ${target}  ${ok ? 'met' : 'MISSED'}`);
    ratio(
      `whole pipeline ÷ slowest stage alone ${slowestName.split(' ')[0]}`,
      rate(pipeline) / rate(slowest),
      '≥ 0.85',
      rate(pipeline) / rate(slowest) >= 0.85,
    );
    if (bound !== null)
      console.log(
        `${'whole pipeline ÷ its bound on these cores'.padEnd(52)} ${(rate(pipeline) / bound).toFixed(3).padStart(8)}`,
      );
    ratio('upsert ÷ binary COPY', rate(upsert) / rate(copy), '≥ 0.5', rate(upsert) / rate(copy) >= 0.5);
    const ingesting = Math.max(...[...rss.peaks].filter(([phase]) => phase !== 'start-up').map(([, at]) => at.rss));
    console.log(
      `${'peak RSS while ingesting, (a) to (d)'.padEnd(52)} ${mb(ingesting).padStart(8)}  target < 400 MB  ${ingesting < 400 * 2 ** 20 ? 'met' : 'MISSED'}`,
    );
    const overall = Math.max(peak, processPeak);
    console.log(
      `${'peak RSS overall: sampled or getrusage, the higher'.padEnd(52)} ${mb(overall).padStart(8)}  target < 400 MB  ${overall < 400 * 2 ** 20 ? 'met' : 'MISSED'}`,
    );
  } finally {
    rss.stop();
    await server.stop();
    await database?.drop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The rows a stage's clean-up deleted are removed now, between timed stages, as the server's
 * maintenance would within a minute anyway (kernel/src/db/embedded-autovacuum.ts): so the next stage
 * and the pipeline start from the index the stages found, not from one full of dead rows, and no
 * stage's time includes another's clean-up. A PostgreSQL server's autovacuum runs on its own.
 */
async function maintainUntimed(kernel: Awaited<ReturnType<typeof startServer>>['kernel']): Promise<void> {
  if (!kernel.autovacuum) return;
  const started = performance.now();
  const done = await kernel.autovacuum.runOnce();
  console.log(
    `    maintenance between stages (untimed): ${done.map((entry) => `${entry.table} ${entry.vacuum ? 'vacuum' : 'analyze'} ${entry.milliseconds} ms`).join(', ') || 'none due'} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}

/** Disk space the files under `dir` take (allocated blocks: a new WAL segment is sparse). */
function diskBytes(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).reduce((total, name) => {
    const stat = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
    return total + (stat?.isFile() ? stat.blocks * 512 : 0);
  }, 0);
}

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join(dir, name));
}

type Api = (method: string, route: string, body?: unknown) => Promise<unknown>;

/**
 * API calls as the admin. When the access token has expired (a long run outlives it), a new one
 * comes from the refresh token, as the web UI gets it: signing in again with the password would run
 * scrypt, whose 32 MiB showed in the peak at ×10 (a rise of 33 MB for 0.13 s every 15 minutes).
 */
async function signIn(url: string): Promise<Api> {
  type Tokens = { access_token: string; refresh_token?: string };
  const post = async (route: string, body: unknown) => {
    const res = await fetch(url + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.ok ? ((await res.json()) as Tokens) : null;
  };
  const login = async () => (await post('/api/auth/login', { username: 'admin', password: 'admin-password-1' }))!;
  let tokens = await login();
  // A refresh token works once (the answer carries the next one), so calls that find the token
  // expired at the same time share one renewal; past the refresh lifetime, sign in again.
  let renewing: Promise<void> | null = null;
  const renew = () =>
    (renewing ??= (async () => {
      const renewed = tokens.refresh_token
        ? await post('/api/auth/refresh', { refresh_token: tokens.refresh_token })
        : null;
      tokens = renewed ?? (await login());
    })().finally(() => {
      renewing = null;
    }));
  const send = (method: string, route: string, body: unknown) =>
    fetch(url + route, {
      method,
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  // A keep-alive connection the server closes just as a request goes out fails that request
  // (ECONNRESET; seen while PGlite kept the event loop busy for long stretches): reads are sent again.
  const call = (method: string, route: string, body: unknown) =>
    send(method, route, body).catch((error: unknown) =>
      method === 'GET' ? send(method, route, body) : Promise.reject(error),
    );
  return async (method, route, body) => {
    let res = await call(method, route, body);
    if (res.status === 401) {
      await renew();
      res = await call(method, route, body);
    }
    if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}

/** Polls until the scan's sync job has ended and no document is pending or indexing any more. */
async function waitUntilIndexed(
  kernel: Awaited<ReturnType<typeof startServer>>['kernel'],
  api: Api,
  syncJob: string,
): Promise<{ documents: number; failed: number; chunks: number }> {
  // A line a minute on a long run: how far it is, and the memory now.
  let nextReport = performance.now() + 60_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const job = (await api('GET', `/api/jobs/${syncJob}`)) as { status: string; error: string | null };
    if (job.status === 'failed' || job.status === 'cancelled')
      throw new Error(`the sync job ${job.status}: ${job.error}`);
    const { rows } = await kernel.db.query<{ status: string; n: string; chunks: string }>(
      'select status, count(*) as n, coalesce(sum(chunk_count), 0) as chunks from document group by status',
    );
    const count = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
    if (performance.now() >= nextReport) {
      nextReport += 60_000;
      console.log(
        `  … ${count('indexed')} documents indexed, ${count('pending') + count('indexing')} to go; RSS ${mb(process.memoryUsage.rss())}`,
      );
    }
    if (job.status === 'succeeded' && count('pending') + count('indexing') === 0) {
      return {
        documents: count('indexed'),
        failed: count('failed'),
        chunks: Number(rows.find((row) => row.status === 'indexed')?.chunks ?? 0),
      };
    }
  }
}

await main();
