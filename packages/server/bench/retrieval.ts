/**
 * npm run bench:retrieval [-- --chunks N] — retrieval at scale on a real PostgreSQL server:
 * 100,000 synthetic chunks with 384-dimension vectors, loaded in bulk into a fresh database
 * (dropped at the end). Prints the retrieve stage's p50/p95 for lexical, dense and hybrid search,
 * HNSW recall@10 against exact search, and the overhead of POST /api/chat's HTTP + SSE path over
 * calling the LLM backend directly, then runs 100 chat streams at once. Each target is printed
 * with PASS/MISS, next to a baseline measured in the same run where there is one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createOutboundPolicy, definePreset, providerTokens, tokens, type EmbeddingSpace } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { buildTermWindows, termWindowsQueue, termWindowsSchedule } from '@docqa/core/search';
import { startChatCompletionsServer, writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import embedderLlamacpp from '@docqa/plugin-embedder-llamacpp';
import llmOpenai from '@docqa/plugin-llm-openai';
import { standardPreset } from '../dist/presets/standard.js';
import { withoutLicenseGate } from '../dist/testing/standard-with-license.js';
import { startServer, type RunningServer } from '../dist/server.js';
import { licenseStandIn } from '../dist/testing/license-stand-in.js';
import { applyMemoryPolicy } from '../dist/runtime/memory-policy.js';
import { frequentWordQuery, lexicalQuery, seededRandom, stopWordQuery } from './retrieval/corpus.js';
import { corpusDistributions, loadCorpus, reusedCorpus, type CorpusOptions } from './retrieval/load.js';
import { printLoad, printResults, printSizes } from './retrieval/report.js';
import { relationSizes } from './retrieval/sizes.js';
import { MemorySampler } from './memory-sampler.js';
import { concurrentStreams, pairedFirstTokens } from './retrieval/streams.js';
import { prewarmVectorIndex } from './retrieval/prewarm.js';
import { denseRecall, queryPostings, searchLatencies } from './retrieval/search.js';

const { values: args } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    // Lexical queries measured before the term windows are built (the baseline): at a million chunks
    // each takes seconds, so a run there measures fewer of them than with the windows.
    'baseline-queries': { type: 'string' },
    // Keep the loaded database instead of dropping it, and measure an earlier run's kept database
    // without loading again: a million chunks take over an hour to load on this machine.
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
  },
});
const chunks = Number(args.chunks);
// Fewer measured queries keep a run at a million chunks, where a search reads ten times the postings, within the hour.
const measured = Number(args.queries);
const databaseServer = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!databaseServer) {
  console.error(
    'bench:retrieval needs a PostgreSQL server with pgvector (it creates and drops its own database there):',
  );
  console.error('  TEST_DATABASE_URL=postgres://docqa:docqa@127.0.0.1:5432/docqa_test npm run bench:retrieval');
  process.exit(2);
}
if (!Number.isInteger(chunks) || chunks < 100)
  throw new Error(`--chunks must be a whole number of at least 100, got ${args.chunks}`);
if (!Number.isInteger(measured) || measured < 20)
  throw new Error(`--queries must be a whole number of at least 20, got ${args.queries}`);
const baselineMeasured = Number(args['baseline-queries'] ?? measured);
if (!Number.isInteger(baselineMeasured) || baselineMeasured < 20 || baselineMeasured > measured)
  throw new Error(`--baseline-queries must be a whole number from 20 to --queries, got ${args['baseline-queries']}`);

const targets = {
  hybridP95Ms: 50,
  lexicalP95Ms: 50,
  recallAt10: 0.95,
  sseOverheadMs: 20,
  concurrentStreams: 100,
  loadPeakRssMb: 400,
};
const corpus: CorpusOptions = {
  chunks,
  chunksPerDocument: 10,
  vocabularySize: 30_000,
  wordsPerChunk: [150, 230],
  vectors: { dimensions: 384, clusters: 500, localDimensions: 12, spread: 0.25, noise: 0.1 },
  seed: 20_250_601,
};
const space: EmbeddingSpace = { model: 'bench-tiny-bert', dimensions: 384 };
const warmUp = 30;
const recallQueries = Math.min(200, measured);
const ssePairs = 60;
// A model that takes 50 ms to its first token and 5 ms a token after: the delays cancel out of
// the overhead (both sides wait for them), while the streams stay short.
const llmTiming = { firstTokenDelayMs: 50, tokenDelayMs: 5 };
const llmKey = 'sk-bench-retrieval';
// A fixed answer, so that every stream is the same 31 pieces long.
const answer =
  'Invoices are archived for ten years [1], in the finance vault [2], and travel costs are refunded within thirty days of the trip [3] when receipts are attached to the claim.';
// The HNSW graph must fit in maintenance_work_mem for a fast build (pgvector's advice; past it
// pgvector warns that building "will take significantly more time"): about 2 kB a 384-d vector
// with m = 16 (1 GB held 100,000 with room to spare), so 2.5 kB a chunk, at least 1 GB.
const maintenanceWorkMem = `${Math.max(1024, Math.ceil((chunks * 2.5) / 1024))}MB`;

async function main(): Promise<void> {
  // As `docqa` does before anything else (cli.ts).
  applyMemoryPolicy();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-bench-retrieval-'));
  const database = args.reuse
    ? { url: args.reuse, drop: async () => {} }
    : await createTemporaryDatabase(databaseServer!);
  const llm = await startChatCompletionsServer({ apiKey: llmKey, reply: answer, ...llmTiming });
  const servers: RunningServer[] = [];
  try {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      `alter database "${new URL(database.url).pathname.slice(1)}" set maintenance_work_mem = '${maintenanceWorkMem}'`,
    );
    const { rows: versions } = await admin.query<{ server: string; vector: string | null }>(
      `select current_setting('server_version') as server, (select default_version from pg_available_extensions where name = 'vector') as vector`,
    );
    await admin.end();
    const model = await writeTinyBertEmbeddingModel(path.join(dataDir, 'tiny-bert-384.gguf'), { dimensions: 384 });
    const start = async (withEmbedder: boolean) => {
      const license = licenseStandIn(() => ({
        plan: 'PRO',
        limits: { documents: null, fileSizeBytes: null, storageBytes: null },
      }));
      // One thread: with two on these two shared cores, ggml's threads wait for each other at
      // every layer and one query in seven took ~200 ms (measured: p95 223 ms; one thread 5.5 ms).
      const embedder = withEmbedder
        ? [{ plugin: embedderLlamacpp, options: { modelPath: model.path, modelName: space.model, threads: 1 } }]
        : [];
      const server = await startServer({
        env: {
          ...testSecrets,
          DOCQA_DATA_DIR: dataDir,
          DOCQA_SECRETS_DIR: dataDir,
          LOG_LEVEL: 'ERROR',
          DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
          // A run on a busy machine can outlast the default 15 minutes; token lifetime is not measured.
          ACCESS_TOKEN_EXPIRE_SECONDS: '86400',
          DATABASE_URL: database.url,
          LLM_BACKEND: 'hosted',
          HOSTED_API_KEY: llmKey,
          HOSTED_MODEL: 'docqa-bench-chat',
          HOSTED_BASE_URL: llm.baseUrl,
        },
        cwd: dataDir,
        presets: {
          standard: definePreset({
            id: 'standard',
            description: 'standard + bench embedder + license stand-in',
            plugins: (context) => [
              ...withoutLicenseGate(standardPreset.plugins(context)),
              ...embedder,
              { plugin: license },
            ],
          }),
        },
        port: 0,
        host: '127.0.0.1',
      });
      servers.push(server);
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
      });
      return { server, token: ((await login.json()) as { access_token: string }).access_token };
    };

    // Lexical: a server without an embedder, as on an install that has none.
    const lexical = await start(false);
    // The term windows' scheduled build would run at the next tick of its cron, in the middle of the
    // measurements without windows: the bench builds them itself, between the two.
    await lexical.server.kernel.resolve(tokens.jobs).unschedule(termWindowsQueue, termWindowsSchedule.key);
    console.log(
      `bench:retrieval — PostgreSQL ${versions[0]?.server}, pgvector ${versions[0]?.vector}, ${os.availableParallelism()} cores; ${args.reuse ? 'reusing' : 'loading'} ${chunks.toLocaleString('en')} chunks …`,
    );
    const store = lexical.server.kernel.resolve(providerTokens.vectorStore);
    // The whole bench process (server included), sampled through the load: what an ingest of this
    // corpus in one process needs, whatever the database server holds.
    const memory = new MemorySampler();
    // A phase per load stage, so that a peak over budget names the stage it happened in.
    memory.phase('load: chunks + postings', (line) => console.log(line));
    const stage = (name: string) => {
      progress(name);
      memory.phase(`load: ${name}`, (line) => console.log(line));
    };
    const load = args.reuse
      ? await reusedCorpus(lexical.server.kernel.db, corpus)
      : await loadCorpus(lexical.server.kernel.db, store, space, corpus, stage);
    memory.phase('search', (line) => console.log(line));
    memory.stop();
    const loadPeakRss = Math.max(
      ...[...memory.peaks].filter(([phase]) => phase.startsWith('load')).map(([, peak]) => peak.rss),
    );
    if (load) printLoad(load, { ...corpus.vectors, maintenanceWorkMem, peakRss: loadPeakRss });
    else console.log('reusing a kept corpus (its load was measured by the run that kept it)');
    printSizes(await relationSizes(lexical.server.kernel.db), corpus.chunks);
    const { vocabulary, vectors } = corpusDistributions(corpus);
    const queryRandom = seededRandom(corpus.seed + 2);
    const lexicalQueries = Array.from({ length: warmUp + measured }, () => lexicalQuery(vocabulary, queryRandom));
    const baselineQueries = lexicalQueries.slice(0, warmUp + baselineMeasured);
    progress('lexical search');
    const lexicalRun = await searchLatencies(lexical.server.url, lexical.token, baselineQueries, warmUp);
    const postings = await queryPostings(lexical.server.kernel.db, baselineQueries.slice(warmUp));
    // Queries of frequent words only, from their own seed so that the other query sets stay as they were.
    const frequentRandom = seededRandom(corpus.seed + 3);
    const frequentQueries = Array.from({ length: warmUp + measured }, () =>
      frequentWordQuery(vocabulary, frequentRandom),
    );
    progress('lexical search, frequent words');
    const frequentBaseline = frequentQueries.slice(0, warmUp + baselineMeasured);
    const frequentRun = await searchLatencies(lexical.server.url, lexical.token, frequentBaseline, warmUp);
    const frequentPostings = await queryPostings(lexical.server.kernel.db, frequentBaseline.slice(warmUp));
    // The same queries again once the scheduled job's build of the frequent terms' windows has run
    // (run here directly): before and after in the same run, on the same load.
    progress('term windows of the frequent terms');
    const windowsStarted = performance.now();
    const windowsBuilt = await buildTermWindows(lexical.server.kernel.db);
    const termWindows = { ...windowsBuilt, seconds: (performance.now() - windowsStarted) / 1000 };
    progress('lexical search with term windows');
    const lexicalWindowsRun = await searchLatencies(lexical.server.url, lexical.token, lexicalQueries, warmUp);
    const frequentWindowsRun = await searchLatencies(lexical.server.url, lexical.token, frequentQueries, warmUp);
    const windowSizes = await relationSizes(lexical.server.kernel.db);
    progress('recall@10 against exact search');
    const recall = await denseRecall(
      lexical.server.kernel.db,
      store,
      space,
      Array.from({ length: recallQueries }, () => vectors.point(Math.floor(queryRandom() * corpus.vectors.clusters))),
    );
    await lexical.server.stop();

    // Dense and hybrid: the same database, now served with the 384-dimension embedder.
    progress('dense and hybrid search');
    const full = await start(true);
    await prewarmVectorIndex(full.server.kernel.db, (line) => console.log(line));
    const denseRun = await searchLatencies(
      full.server.url,
      full.token,
      Array.from({ length: warmUp + measured }, () => stopWordQuery(queryRandom)),
      warmUp,
    );
    // The lexical run's queries again, so that hybrid / lexical compares like with like.
    const hybridRun = await searchLatencies(full.server.url, full.token, lexicalQueries, warmUp);
    const hybridFrequentRun = await searchLatencies(full.server.url, full.token, frequentQueries, warmUp);

    const backend = await llmOpenai.init({
      options: llmOpenai.configSchema.parse({
        baseUrl: llm.baseUrl,
        apiKey: llmKey,
        model: 'docqa-bench-chat',
        maxRetries: 0,
      }),
      instanceId: 'bench-direct',
      // The loopback chat server is the operator's own, as a configured base URL would be.
      deps: { outbound: createOutboundPolicy(['127.0.0.1']) },
      logger: quietLogger,
      onStop: () => {},
      signal: new AbortController().signal,
    });
    progress('chat streams');
    const chatQueries = Array.from({ length: 10 + ssePairs }, () => lexicalQuery(vocabulary, queryRandom));
    const pairs = (await pairedFirstTokens(full.server.url, full.token, llm, backend, chatQueries)).slice(10); // the first 10 warm up
    const concurrent = await concurrentStreams(
      full.server.url,
      full.token,
      Array.from({ length: targets.concurrentStreams }, () => lexicalQuery(vocabulary, queryRandom)),
    );
    await full.server.stop();

    printResults(
      {
        lexical: lexicalRun,
        lexicalFrequent: frequentRun,
        lexicalWindows: lexicalWindowsRun,
        lexicalFrequentWindows: frequentWindowsRun,
        termWindows: {
          ...termWindows,
          bytes: windowSizes.relations.find((relation) => relation.table === 'term_window')?.tableBytes ?? 0,
        },
        dense: denseRun,
        hybrid: hybridRun,
        hybridFrequent: hybridFrequentRun,
        postings,
        frequentPostings,
        recall,
        pairs,
        concurrent,
        loadPeakRss: load ? loadPeakRss : null,
      },
      { warmUp, ...llmTiming, targets },
    );
  } finally {
    await Promise.allSettled(servers.map((server) => server.stop()));
    await llm.close();
    // The database's name, not its URL: the URL holds the password.
    const kept = new URL(database.url).pathname.slice(1);
    if (args.keep || args.reuse)
      console.log(`kept the loaded database ${kept}: measure it again with --reuse <its URL>`);
    else await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Phases on stderr, so that a run of several minutes shows where it is without cluttering the results. */
function progress(phase: string): void {
  process.stderr.write(`  … ${phase} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
}

const quietLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

const started = performance.now();
await main();
console.log(`\n(bench ran ${((performance.now() - started) / 1000).toFixed(0)} s)`);
