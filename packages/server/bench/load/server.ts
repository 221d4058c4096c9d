/**
 * The servers npm run bench:load puts under load, each in a child process of its own (forked with
 * IPC), so that the load generator's work and the bench's own are not counted as theirs:
 * - `bare`: node:http answering a small JSON, the baseline;
 * - `docqa`: DocQA (the standard preset, a license stand-in on ENTERPRISE with no document limit, so
 *   group scopes are worked out as in a company's installation) holding the first `documents` of
 *   BEIR SciFact, fully indexed, with a viewer signed in. On PostgreSQL, a database of its own is made
 *   next to the one `databaseUrl` names and dropped at the end.
 *
 * Messages: the child sends {ready, url, token, stats}; the parent sends {profile: name} to start the
 * V8 CPU profiler (the same sampler as --cpu-prof, but covering only what is measured, not indexing),
 * {profile: null} to write the profile to `profileDir`, and {stop: true}.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { indexCorpus, readBeir } from '../quality/beir.js';

export interface ServerSpec {
  kind: 'bare' | 'docqa';
  documents?: number;
  databaseUrl?: string;
  logLevel?: string;
  profileDir?: string;
  /** PostgreSQL: ANALYZE the database once indexed, instead of leaving it to autovacuum's timing. */
  analyze?: boolean;
}

export interface ServerReady {
  ready: true;
  url: string;
  /** A viewer's Authorization header value (docqa only). */
  authorization?: string;
  queries?: string[];
  stats?: { documents: number; chunks: number; indexSeconds: number };
  /** The temporary PostgreSQL database's name, so the bench can read its backends' CPU time. */
  databaseName?: string;
}

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** In CI the data sets sit next to the repository (../shared/data), as bench:quality finds them. */
export const scifactFolder = path.resolve(repositoryRoot, '../shared/data/beir/scifact');

const spec = JSON.parse(process.argv[2] ?? '{}') as ServerSpec;
const send = (message: unknown) => process.send?.(message);
/** Set once the server is up; until then an interrupted bench just ends this process. */
let stopping: (() => Promise<void>) | null = null;
/** The temporary PostgreSQL database, dropped however this process ends. */
let database: Awaited<ReturnType<typeof createTemporaryDatabase>> | null = null;

// The bench went away (interrupted, or failed): stop too, dropping the temporary database, even
// while the corpus is still being indexed.
process.on('disconnect', () => {
  (stopping ?? (async () => void (await database?.drop())))().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

async function bare(): Promise<() => Promise<void>> {
  const body = JSON.stringify({ version: '0.1.0', commit: 'unknown', build_date: 'unknown' });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  send({ ready: true, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies ServerReady);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

async function docqa(): Promise<() => Promise<void>> {
  const set = readBeir(scifactFolder);
  const corpus = set.corpus.slice(0, spec.documents ?? set.corpus.length);
  database = spec.databaseUrl ? await createTemporaryDatabase(spec.databaseUrl) : null;
  if (database) process.env.DATABASE_URL = database.url;
  else delete process.env.DATABASE_URL;
  const index = await indexCorpus(corpus, { LOG_LEVEL: spec.logLevel ?? 'INFO' }, 'ENTERPRISE');
  if (database && spec.analyze) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('analyze').finally(() => client.end());
  }
  const post = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${index.url}${route}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const credentials = { username: 'bench-viewer', password: 'viewer-password-1' };
  await post('/api/auth/users', { ...credentials, role: 'viewer' }, index.auth);
  const login = await post('/api/auth/login', credentials);
  send({
    ready: true,
    url: index.url,
    authorization: `Bearer ${String(login.access_token)}`,
    // The test claims, the questions SciFact's documents answer.
    queries: [...set.qrels.keys()].map((id) => set.queries.get(id) as string),
    stats: { documents: index.stats.documents, chunks: index.stats.chunks, indexSeconds: index.stats.indexSeconds },
    ...(database ? { databaseName: new URL(database.url).pathname.slice(1) } : {}),
  } satisfies ServerReady);
  return async () => {
    await index.stop();
    await database?.drop();
  };
}

const session = new Session();
let profiling: string | null = null;

async function onMessage(message: { profile?: string | null; stop?: boolean }, stop: () => Promise<void>) {
  if (message.profile && spec.profileDir) {
    if (!profiling) {
      session.connect();
      await session.post('Profiler.enable');
    }
    profiling = message.profile;
    await session.post('Profiler.start');
    send({ profiling: true });
  } else if (message.profile === null && profiling && spec.profileDir) {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(spec.profileDir, { recursive: true });
    fs.writeFileSync(path.join(spec.profileDir, `${profiling}.cpuprofile`), JSON.stringify(profile));
    send({ profiled: true });
  } else if (message.stop) {
    await stop();
    process.exit(0);
  }
}

const stop = spec.kind === 'bare' ? await bare() : await docqa();
stopping = stop;
process.on('message', (message: { profile?: string | null; stop?: boolean }) => {
  onMessage(message, stop).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
