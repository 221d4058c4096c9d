/**
 * npm run bench:load [-- options] — many clients at once against DocQA, next to a bare node:http
 * server measured in the same run on the same machine, so the ratios are what matter:
 * POST /api/search, POST /api/chat (extractive answers, JSON and server-sent events), GET /api/docs
 * (50 items) and GET /api/version, as a signed-in viewer, over BEIR SciFact (../shared/data/beir).
 * Each server runs in a child process (load/server.ts) and the load in another (load/client.ts), so
 * each one's CPU time is its own: the server's is read from /proc/<pid>/stat around each endpoint.
 *
 *   --clients 50,200        concurrent connections, each run in turn
 *   --seconds 10            measured per endpoint and client count (after --warmup 2 s)
 *   --documents 5183        SciFact documents indexed (all by default)
 *   --endpoints search,chat,chat-sse,docs,version
 *   --database-url URL      PostgreSQL (also DATABASE_URL); a temporary database is made beside it
 *   --profile DIR           a V8 CPU profile of the server per endpoint and client count
 *   --analyze               PostgreSQL: ANALYZE once the corpus is indexed (else autovacuum's timing
 *                           decides which plans are measured)
 *   --log-level INFO        the server's LOG_LEVEL (the product's default; lines go to /dev/null)
 *   --json FILE             the figures as JSON too
 *   --version-rounds 3      pairs of bare and /api/version runs the printed median ratio is taken over
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import type { LoadResult, LoadSpec } from './load/client.js';
import type { ServerReady, ServerSpec } from './load/server.js';
import { endpointSpecs, type EndpointContext, type EndpointName } from './load/endpoints.js';
import { formatRow, type Row } from './load/report.js';
import { launchSettings } from '../src/runtime/memory-policy.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const tsxArgs = ['--import', 'tsx', '--conditions=docqa-source'];

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '50,200' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    documents: { type: 'string' },
    endpoints: { type: 'string', default: 'search,chat,chat-sse,docs,version' },
    'database-url': { type: 'string' },
    profile: { type: 'string' },
    analyze: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'INFO' },
    json: { type: 'string' },
    'version-rounds': { type: 'string', default: '3' },
  },
});
const clientCounts = values.clients.split(',').map(Number);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const pairedRounds = Number(values['version-rounds']);
const endpoints = values.endpoints.split(',') as EndpointName[];
const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
for (const name of endpoints) if (!(name in endpointSpecs)) throw new Error(`Unknown endpoint ${name}.`);

interface Child {
  process: ChildProcess;
  ready: ServerReady;
}

/**
 * DocQA's process starts as `npm start` starts it, with the launch settings (memory-policy.ts:
 * allocator variables and V8 flags only node's start applies); the bare server as plain node.
 */
function launchOf(kind: ServerSpec['kind']): { execArgv: string[]; env: NodeJS.ProcessEnv } {
  if (kind === 'bare') return { execArgv: tsxArgs, env: process.env };
  const settings = Object.entries(launchSettings);
  const flags = settings
    .filter(([name]) => name.startsWith('--'))
    .map(([name, value]) => (value === '' ? name : `${name}=${value}`));
  const variables = Object.fromEntries(settings.filter(([name]) => !name.startsWith('--')));
  return { execArgv: [...tsxArgs, ...flags], env: { ...variables, ...process.env } };
}

function startChild(spec: ServerSpec): Promise<Child> {
  const child = fork(here('./load/server.ts'), [JSON.stringify(spec)], {
    ...launchOf(spec.kind),
    // The server's log lines cost it what they cost in production, but nobody reads them here.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: ServerReady) => resolve({ process: child, ready: message }));
    child.once('exit', (code) => reject(new Error(`The ${spec.kind} server exited (${code}) before it was ready.`)));
  });
}

function ask(child: ChildProcess, message: unknown): Promise<void> {
  return new Promise((resolve) => {
    child.once('message', () => resolve());
    child.send(message as object);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.send({ stop: true });
  });
}

/** User and system CPU seconds of a process, every thread (/proc/<pid>/stat fields 14 and 15). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds of the PostgreSQL backends serving `database` (their process titles name it), when
 * PostgreSQL runs on this machine: the database's share of a request, which the server's omits.
 */
function databaseCpuSeconds(database: string): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      // Its client backends only: an autovacuum worker analysing the freshly indexed tables names the
      // database too, and would be counted as the requests' work.
      const backend = title.startsWith('postgres:') && title.includes(` ${database} `) && !title.includes('autovacuum');
      if (backend) total += cpuSeconds(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return total;
}

async function load(spec: LoadSpec): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...tsxArgs, here('./load/client.ts'), JSON.stringify(spec)],
    {
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(stdout) as LoadResult;
}

async function measure(
  server: Child,
  name: string,
  spec: Omit<LoadSpec, 'clients' | 'seconds'>,
  clients: number,
): Promise<Row> {
  if (warmup > 0) await load({ ...spec, clients, seconds: warmup });
  const pid = server.process.pid as number;
  // Only DocQA is profiled: the baseline has nothing to find.
  const profile = values.profile !== undefined && server.ready.stats !== undefined;
  if (profile) await ask(server.process, { profile: `${name.replace(/\W+/g, '-')}-${clients}` });
  const database = server.ready.databaseName;
  const cpuBefore = cpuSeconds(pid);
  const databaseBefore = database ? databaseCpuSeconds(database) : 0;
  const result = await load({ ...spec, clients, seconds });
  const cpu = cpuSeconds(pid) - cpuBefore;
  const databaseCpu = database ? databaseCpuSeconds(database) - databaseBefore : null;
  if (profile) await ask(server.process, { profile: null });
  return {
    name,
    clients,
    ...result,
    rps: result.requests / result.seconds,
    cpuMsPerRequest: (cpu * 1000) / result.requests,
    ...(databaseCpu !== null ? { databaseCpuMsPerRequest: (databaseCpu * 1000) / result.requests } : {}),
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * GET /api/version's throughput over the bare server's, in `pairedRounds` pairs: the first from the
 * table's rows, then pairs measured back to back, the order alternating. Both are cheap enough that
 * the load client's own core decides much of either figure, so the machine's load drifting between
 * two measurements moved one ratio by ±0.06 (0.74–0.86 in four runs); a median of pairs is not moved
 * by one pair that met a drift.
 */
async function versionRatios(bare: Child, docqa: Child, context: EndpointContext, clients: number, first: number) {
  const ratios = [first];
  const bareRequest = { origin: bare.ready.url, method: 'GET', path: '/', headers: {} };
  const spec = endpointSpecs.version(context);
  const measureBare = () => measure(bare, 'bare node:http', bareRequest, clients);
  const measureVersion = () => measure(docqa, spec.label, { origin: docqa.ready.url, ...spec.request }, clients);
  for (let round = 1; round < pairedRounds; round++) {
    // The table's pair measured the bare server first; the next pairs alternate.
    const versionFirst = round % 2 === 1;
    const earlier = versionFirst ? await measureVersion() : await measureBare();
    const later = versionFirst ? await measureBare() : await measureVersion();
    const [bareRow, versionRow] = versionFirst ? [later, earlier] : [earlier, later];
    ratios.push(versionRow.rps / bareRow.rps);
  }
  return ratios;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const database = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
  console.log(`bench:load: ${database}, ${os.availableParallelism()} cores, load average ${loadAverage()}`);
  const bare = await startChild({ kind: 'bare' });
  const docqa = await startChild({
    kind: 'docqa',
    ...(values.documents ? { documents: Number(values.documents) } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    logLevel: values['log-level'],
    ...(values.profile ? { profileDir: values.profile } : {}),
    ...(values.analyze ? { analyze: true } : {}),
  });
  const rows: Row[] = [];
  const versionRounds: { clients: number; ratios: number[]; median: number }[] = [];
  try {
    const stats = docqa.ready.stats!;
    console.log(
      `corpus: SciFact, ${stats.documents} documents, ${stats.chunks} chunks, indexed in ${stats.indexSeconds.toFixed(1)} s; ` +
        `${seconds} s per endpoint after ${warmup} s of warm-up; load average ${loadAverage()}`,
    );
    const context = { authorization: docqa.ready.authorization!, queries: docqa.ready.queries! };
    for (const clients of clientCounts) {
      const baseline = await measure(
        bare,
        'bare node:http',
        { origin: bare.ready.url, method: 'GET', path: '/', headers: {} },
        clients,
      );
      const measured: Row[] = [baseline];
      // /api/version first: the other endpoints' ratios to it are taken in the same run.
      const ordered = [...endpoints].sort((a, b) => Number(b === 'version') - Number(a === 'version'));
      for (const name of ordered) {
        const spec = endpointSpecs[name](context);
        measured.push(await measure(docqa, spec.label, { origin: docqa.ready.url, ...spec.request }, clients));
      }
      const version = measured.find((row) => row.name === endpointSpecs.version(context).label);
      console.log(`\n${clients} clients (load average ${loadAverage()})`);
      for (const row of measured) console.log(formatRow(row, baseline, version));
      rows.push(...measured);
      if (version) {
        const ratios = await versionRatios(bare, docqa, context, clients, version.rps / baseline.rps);
        console.log(
          `GET /api/version ×bare in ${ratios.length} rounds, each pair back to back: ` +
            `${ratios.map((value) => value.toFixed(3)).join(' ')}; median ${median(ratios).toFixed(3)}`,
        );
        versionRounds.push({ clients, ratios, median: median(ratios) });
      }
    }
  } finally {
    await Promise.all([stopChild(bare.process), stopChild(docqa.process)]);
  }
  console.log(`\nload average ${loadAverage()}`);
  if (values.json)
    fs.writeFileSync(
      values.json,
      JSON.stringify({ database, loadAverage: os.loadavg(), rows, versionRounds }, null, 2),
    );
}

await main();
