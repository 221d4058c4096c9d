/**
 * npm run bench:http — DocQA's HTTP stack against a bare node:http server answering the same
 * small JSON, measured in the same run on the same machine, so the ratio is what matters.
 * The load runs in a separate process; both servers run in this one.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { testSecrets } from '@docqa/kernel/testing';
import { startServer } from '../src/server.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const loadScript = fileURLToPath(new URL('./load.mjs', import.meta.url));

interface LoadResult {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
}

async function load(url: string): Promise<LoadResult & { rps: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    loadScript,
    url,
    String(concurrency),
    String(seconds),
  ]);
  const result = JSON.parse(stdout) as LoadResult;
  return { ...result, rps: result.requests / seconds };
}

async function main(): Promise<void> {
  const body = JSON.stringify({ status: 'ok', version: '0.1.0' });
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  await load(bareUrl); // warm-up
  const baseline = await load(bareUrl);
  bare.close();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-bench-'));
  const running = await startServer({
    env: {
      ...testSecrets,
      DOCQA_DATA_DIR: dataDir,
      DOCQA_SECRETS_DIR: dataDir,
      LOG_LEVEL: 'WARNING',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
    cwd: dataDir,
    inMemoryDatabase: !process.env.DATABASE_URL,
    port: 0,
    host: '127.0.0.1',
  });
  await load(`${running.url}/api/version`);
  const version = await load(`${running.url}/api/version`);
  const health = await load(`${running.url}/api/health`);
  await running.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const row = (name: string, r: LoadResult & { rps: number }) =>
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}  ratio ${(r.rps / baseline.rps).toFixed(3)}`;
  console.log(
    `HTTP benchmark: ${concurrency} connections, ${seconds} s each, ${os.availableParallelism()} cores, database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'}`,
  );
  console.log(row('baseline: bare node:http', baseline));
  console.log(row('DocQA GET /api/version', version));
  console.log(row('DocQA GET /api/health (select 1)', health));
}

await main();
