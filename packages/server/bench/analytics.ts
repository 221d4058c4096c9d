/**
 * npm run bench:analytics [-- --chunks N --runs R] — the seven analytics endpoints of spec 4.7
 * through HTTP on one source of 100,000 chunks, bulk-loaded in SQL into a fresh database: a
 * PostgreSQL server when TEST_DATABASE_URL or DATABASE_URL is set (a database created and dropped
 * there), else the embedded PGlite on disk in a temporary directory, as an install without
 * DATABASE_URL runs. Each endpoint's median of R runs (after one warm-up) is judged against the
 * target, "under 1 s on 100,000 chunks", and set against baselines measured in the same run on the
 * same rows: `select count(*) from chunk`, and one full read of every chunk's text.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { definePreset } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import connectorTemplate from '@docqa/example-connector-template';
import { standardPreset } from '../src/presets/standard.js';
import { withoutLicenseGate } from '../src/testing/standard-with-license.js';
import { startServer, type RunningServer } from '../src/server.js';
import { licenseStandIn } from '../src/testing/license-stand-in.js';
import { analyticsRoutes } from '../src/routes/analytics.js';
import { loadCorpus } from './analytics-corpus.js';

const { values: args } = parseArgs({
  options: { chunks: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' } },
});
const chunks = Number(args.chunks);
const runs = Number(args.runs);
if (!Number.isInteger(chunks) || chunks < 100)
  throw new Error(`--chunks must be a whole number of at least 100, got ${args.chunks}`);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number of at least 1, got ${args.runs}`);
const targetMs = 1000;
const databaseServer = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

// The rules an operator tuning a source might have: two competing per field, chunk and document level.
const rules = [
  { field_name: 'dept', pattern: 'Department: (\\w+)', scope: 'full', level: 'document', priority: 10 },
  { field_name: 'dept', pattern: '^(\\w+)-', scope: 'filename', level: 'document', priority: 1 },
  { field_name: 'part', pattern: '(?m)^Part (\\d+)', scope: 'full', level: 'chunk', priority: 5, chunk_boundary: true },
  { field_name: 'section', pattern: 'Section (\\d+)', scope: 'full', level: 'chunk', priority: 3 },
  { field_name: 'section', pattern: '§ ?(\\d+)', scope: 'full', level: 'chunk', priority: 2 },
  { field_name: 'topic', pattern: 'Topic: (\\w+)', scope: 'header', level: 'document', priority: 0 },
];

/**
 * One request on a connection of its own: PGlite runs queries on this process's thread, so while a
 * long one runs, a kept-alive connection can time out unnoticed and the next request on it fails.
 */
function request(url: string, token: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          if ((res.statusCode ?? 500) >= 300) reject(new Error(`${method} ${url}: ${res.statusCode} ${text}`));
          else resolve(JSON.parse(text) as Record<string, unknown>);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function timed(work: () => Promise<unknown>): Promise<number> {
  await work(); // warm-up: plans, caches, the first connection
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-bench-analytics-'));
  const database = databaseServer ? await createTemporaryDatabase(databaseServer) : null;
  let server: RunningServer | undefined;
  try {
    const license = licenseStandIn(() => ({
      plan: 'PRO',
      limits: { documents: null, fileSizeBytes: null, storageBytes: null },
    }));
    server = await startServer({
      env: {
        ...testSecrets,
        DOCQA_DATA_DIR: dataDir,
        DOCQA_SECRETS_DIR: dataDir,
        LOG_LEVEL: 'ERROR',
        DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      cwd: dataDir,
      presets: {
        standard: definePreset({
          id: 'standard',
          description: 'standard + json-feed + license stand-in',
          plugins: (context) => [
            ...withoutLicenseGate(standardPreset.plugins(context)),
            { plugin: connectorTemplate },
            { plugin: license },
          ],
        }),
      },
      port: 0,
      host: '127.0.0.1',
    });
    const url = server.url;
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const api = (method: string, route: string, body?: unknown) => request(url + route, token, method, body);
    const feed = path.join(dataDir, 'feed.jsonl');
    fs.writeFileSync(feed, '');
    const sourceId = (
      await api('POST', '/api/integrations', { name: 'Bench', type: 'json-feed', config: { path: feed } })
    ).id as string;
    for (const rule of rules) await api('POST', `/api/metadata/${sourceId}/rules`, rule);

    const db = server.kernel.db;
    const { rows: versions } = await db.query<{ version: string }>(
      `select current_setting('server_version') as version`,
    );
    const engine = database
      ? `PostgreSQL ${versions[0]?.version}`
      : `PGlite (PostgreSQL ${versions[0]?.version}, on disk)`;
    console.log(
      `bench:analytics — ${engine}, ${os.availableParallelism()} cores; loading ${chunks.toLocaleString('en')} chunks …`,
    );
    const loadStart = performance.now();
    const loaded = await loadCorpus(db, sourceId, chunks);
    const loadSeconds = (performance.now() - loadStart) / 1000;
    // A server's autovacuum would have vacuumed and analysed the new rows within a minute; do it
    // now so the run does not depend on its timing. PGlite runs no autovacuum: left as it would be.
    if (database) await db.query('vacuum analyze document, chunk, metadata_rule_outcome');
    const { rows: size } = await db.query<{ bytes: string }>(`select pg_total_relation_size('chunk')::text as bytes`);
    console.log(
      `loaded ${loaded.documents.toLocaleString('en')} documents, ${loaded.chunks.toLocaleString('en')} chunks in ${loadSeconds.toFixed(1)} s; chunk table ${(Number(size[0]?.bytes) / 2 ** 20).toFixed(0)} MiB${database ? '; vacuum analyze done' : ''}`,
    );

    const countMs = await timed(() => db.query('select count(*) from chunk'));
    const scanMs = await timed(() => db.query('select sum(char_length(text)) from chunk'));
    console.log(`baseline: select count(*) from chunk                ${countMs.toFixed(1).padStart(8)} ms`);
    console.log(
      `baseline: select sum(char_length(text)) from chunk  ${scanMs.toFixed(1).padStart(8)} ms   (every text read once)`,
    );
    console.log(`target: each endpoint's median of ${runs} runs under ${targetMs} ms through HTTP`);
    let missed = 0;
    for (const route of analyticsRoutes) {
      const suffix = route.path.split('/').at(-1)!;
      const ms = await timed(() => api('GET', `/api/analytics/${sourceId}/${suffix}`));
      if (ms >= targetMs) missed++;
      console.log(
        `GET …/${suffix.padEnd(24)} ${ms.toFixed(1).padStart(8)} ms  ${ms < targetMs ? 'PASS' : 'MISS'}  ${(ms / countMs).toFixed(1).padStart(6)}× count(*)  ${(ms / scanMs).toFixed(2).padStart(6)}× text scan`,
      );
    }
    console.log(missed === 0 ? 'all endpoints PASS' : `${missed} endpoint(s) MISS`);
  } finally {
    await server?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
