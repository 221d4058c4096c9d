/**
 * npm run bench:mcp — the benchmark lines of programmatic access (issue #26), against a real
 * `docqa serve` in a process of its own (this one is the clients), on the embedded database or, with
 * TEST_DATABASE_URL, a temporary database on that PostgreSQL server:
 *
 * - MCP `search`: 50 clients of the SDK over Streamable HTTP, each with an API key, call at once, for
 *   a number of rounds; errors, p50 and p99, against POST /api/search the same way in the same run.
 * - The OpenAI-compatible stream: what it adds to POST /api/chat with SSE for the same question
 *   (medians of sequential pairs; target ≤ 10 ms), extractive answers.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const pairs = Number(process.env.BENCH_PAIRS ?? 21);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const password = 'bench-password-1';
const queries = ['invoice retention period', 'paid holiday carry over', 'security incident report', 'travel expenses'];

type Json = Record<string, unknown>;

/** `docqa serve` from source, as the end-to-end tests run it; resolves with its URL. */
function serve(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const cli = path.join(root, 'packages/server/src/cli.ts');
  const args = ['--import', import.meta.resolve('tsx'), '--conditions=docqa-source', cli, 'serve'];
  const child = spawn(process.execPath, args, { cwd: env.DOCQA_DATA_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let output: string | null = '';
  return new Promise((resolve, reject) => {
    // The "listening" line is logged at INFO; after it, the log (every request) is read and dropped.
    const onData = (chunk: Buffer) => {
      if (output === null) return;
      output += chunk.toString();
      const url = /DocQA is listening on (http:\/\/[^"\s]+)/.exec(output)?.[1];
      if (!url) return;
      output = null;
      resolve({ url, stop: () => (child.kill('SIGTERM'), exited) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then(() => reject(new Error(`docqa serve exited before listening\n${output ?? ''}`)), reject);
  });
}

async function api(url: string, token: string, method: string, route: string, body?: unknown): Promise<Json> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const res = await fetch(url + route, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as Json;
}

/** A small corpus of policy documents, so that search has postings to score. */
async function loadCorpus(url: string, token: string): Promise<void> {
  const topics = [
    'invoices are kept ten years',
    'employees get twenty-five days of paid holiday',
    'security incidents are reported within a day',
    'travel expenses are refunded monthly',
  ];
  const form = new FormData();
  for (let n = 0; n < 20; n++) {
    const text = Array.from({ length: 30 }, (_, i) => `Policy ${n}.${i}: ${topics[(n + i) % topics.length]}.`);
    form.append('file', new Blob([text.join('\n\n')], { type: 'text/plain' }), `policy-${n}.txt`);
  }
  const res = await fetch(`${url}/api/docs/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const { documents } = (await res.json()) as { documents: Array<{ job_id: string }> };
  for (const document of documents) {
    for (;;) {
      const job = await api(url, token, 'GET', `/api/jobs/${document.job_id}`);
      if (job.status === 'succeeded') break;
      if (job.status === 'failed') throw new Error(`indexing failed: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

interface Measured {
  calls: number;
  errors: number;
  p50: number;
  p99: number;
  seconds: number;
}

/** `rounds` rounds of `concurrency` calls at once; latency of each call, errors counted, never thrown. */
async function measure(call: (index: number, round: number) => Promise<boolean>): Promise<Measured> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      Array.from({ length: concurrency }, async (_, index) => {
        const at = performance.now();
        const ok = await call(index, round).catch(() => false);
        latencies.push(performance.now() - at);
        if (!ok) errors++;
      }),
    );
  }
  latencies.sort((a, b) => a - b);
  const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const seconds = (performance.now() - started) / 1000;
  return { calls: latencies.length, errors, p50: quantile(0.5), p99: quantile(0.99), seconds };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-bench-mcp-'));
  const database = process.env.TEST_DATABASE_URL ? await createTemporaryDatabase(process.env.TEST_DATABASE_URL) : null;
  const server = await serve({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ...testSecrets,
    DOCQA_DATA_DIR: dataDir,
    DOCQA_SECRETS_DIR: path.join(dataDir, 'no-secrets'),
    PORT: '0',
    BACKEND_WORKERS: '1',
    DEFAULT_ADMIN_PASSWORD: password,
    RAG_MIN_CHUNK_LENGTH: '1',
    // The key's rate limit is not what is measured.
    API_KEY_RATE_LIMIT: '100000r/s',
    API_KEY_RATE_LIMIT_BURST: '100000',
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const clients: Client[] = [];
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    process.stderr.write(`bench:mcp: server at ${server.url}; indexing the corpus\n`);
    await loadCorpus(server.url, token);
    process.stderr.write('bench:mcp: measuring\n');
    const key = (await api(server.url, token, 'POST', '/api/auth/api-keys', { name: 'bench' })).key as string;

    const endpoint = new URL('/api/mcp', server.url);
    for (let n = 0; n < concurrency; n++) {
      const client = new Client({ name: 'bench', version: '1' });
      const headers = { authorization: `Bearer ${key}` };
      await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }) as Transport);
      clients.push(client);
    }
    const query = (index: number, round: number) => queries[(index + round) % queries.length] as string;
    const mcpSearch = (index: number, round: number) =>
      (clients[index] as Client)
        .callTool({ name: 'search', arguments: { query: query(index, round), top_k: 10 } })
        .then((result) => result.isError !== true);
    const restSearch = (index: number, round: number) =>
      api(server.url, key, 'POST', '/api/search', { query: query(index, round), top_k: 10 }).then(() => true);
    await measure(mcpSearch); // warm-up
    await measure(restSearch);
    const rest = await measure(restSearch);
    const mcp = await measure(mcpSearch);

    const question = 'How many days of paid holiday does an employee get?';
    const timed = async (route: string, body: unknown) => {
      const started = performance.now();
      const headers = {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      };
      const res = await fetch(server.url + route, { method: 'POST', headers, body: JSON.stringify(body) });
      await res.text();
      if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
      return performance.now() - started;
    };
    const messages = [{ role: 'user', content: question }];
    const chat = () => timed('/api/chat', { query: question });
    const openAi = () => timed('/api/openai/v1/chat/completions', { model: 'docqa', messages, stream: true });
    const times = { chat: [] as number[], openAi: [] as number[] };
    for (let n = 0; n < pairs + 3; n++) {
      const [chatMs, openAiMs] = [await chat(), await openAi()];
      if (n < 3) continue; // warm-up
      times.chat.push(chatMs);
      times.openAi.push(openAiMs);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

    const [load1, load5] = os.loadavg();
    console.log(
      `MCP benchmark: ${concurrency} concurrent calls × ${rounds} rounds, ${os.availableParallelism()} cores, ` +
        `load ${load1?.toFixed(2)} ${load5?.toFixed(2)}, database ${database ? 'PostgreSQL' : 'embedded'}`,
    );
    const row = (name: string, r: Measured) =>
      `${name.padEnd(36)} ${String(r.calls).padStart(5)} calls  errors ${r.errors}  p50 ${r.p50.toFixed(1)} ms  ` +
      `p99 ${r.p99.toFixed(1)} ms  ${(r.calls / r.seconds).toFixed(0)} calls/s`;
    console.log(row('POST /api/search (baseline)', rest));
    console.log(row('MCP tools/call search', mcp));
    const added = median(times.openAi) - median(times.chat);
    console.log(
      `OpenAI-compatible stream: median ${median(times.openAi).toFixed(1)} ms, POST /api/chat SSE ` +
        `${median(times.chat).toFixed(1)} ms: adds ${added.toFixed(1)} ms (target ≤ 10; ${pairs} pairs)`,
    );
    if (mcp.errors > 0) process.exitCode = 1;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await server.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
