/**
 * The parts of npm run bench:quality that every data set shares: reading a BEIR folder, a server on a
 * fresh database with room for the corpus, uploading and waiting for indexing, and nDCG@10 of
 * POST /api/search (lexical: no embedder) with documents ranked by their best chunk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { definePreset, type Db, type Plan } from '@docqa/plugin-api';
import { testSecrets } from '@docqa/kernel/testing';
import { standardPreset } from '../../src/presets/standard.js';
import { withoutLicenseGate } from '../../src/testing/standard-with-license.js';
import { startServer } from '../../src/server.js';
import { licenseStandIn } from '../../src/testing/license-stand-in.js';

const filesPerUpload = 20;

// The free plan holds 100 documents; a license stand-in with room for the whole corpus.
const benchLicense = (plan: Plan) =>
  licenseStandIn(() => ({ plan, limits: { documents: null, fileSizeBytes: null, storageBytes: null } }));

export interface BeirSet {
  /** Documents by their id in the qrels (prefixed when several sets share one index). */
  corpus: Array<{ id: string; text: string }>;
  queries: Map<string, string>;
  qrels: Map<string, Map<string, number>>;
}

const readJsonLines = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);

/** A BEIR folder; `prefix` keeps ids apart when several sets go into one index. */
export function readBeir(folder: string, prefix = ''): BeirSet {
  const corpus = readJsonLines<{ _id: string; title: string; text: string }>(path.join(folder, 'corpus.jsonl')).map(
    (doc) => ({ id: prefix + doc._id, text: doc.title ? `${doc.title}\n\n${doc.text}` : doc.text }),
  );
  const queries = new Map(
    readJsonLines<{ _id: string; text: string }>(path.join(folder, 'queries.jsonl')).map((q) => [
      prefix + q._id,
      q.text,
    ]),
  );
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(path.join(folder, 'qrels/test.tsv'), 'utf8').split('\n').slice(1)) {
    const [queryId, corpusId, score] = line.trim().split('\t');
    if (!queryId || !corpusId) continue;
    if (!qrels.has(prefix + queryId)) qrels.set(prefix + queryId, new Map());
    qrels.get(prefix + queryId)?.set(prefix + corpusId, Number(score));
  }
  return { corpus, queries, qrels };
}

/** nDCG@10 with graded gains (2^rel − 1) as trec_eval and BEIR compute it. */
export function ndcgAt10(ranked: string[], relevant: Map<string, number>): number {
  const dcg = ranked
    .slice(0, 10)
    .reduce((sum, id, i) => sum + (2 ** (relevant.get(id) ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = [...relevant.values()]
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, rel, i) => sum + (2 ** rel - 1) / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

export interface IndexedCorpus {
  /** Searches and answers the documents, best first, by their corpus ids. */
  search(query: string): Promise<{ ranked: string[]; milliseconds: number }>;
  stats: { documents: number; chunks: number; postings: number; indexSeconds: number; uploadSeconds: number };
  stop(): Promise<void>;
  /** The server's database, to look at what was indexed. */
  db: Db;
  url: string;
  /** The admin's Authorization header. */
  auth: { authorization: string };
}

/** A server on a fresh database (embedded unless DATABASE_URL is set) holding `corpus`, fully indexed. */
export async function indexCorpus(
  corpus: BeirSet['corpus'],
  env: Record<string, string> = {},
  plan: Plan = 'PRO',
): Promise<IndexedCorpus> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-quality-'));
  const databaseUrl = process.env.DATABASE_URL;
  const server = await startServer({
    env: {
      ...testSecrets,
      DOCQA_DATA_DIR: dataDir,
      DOCQA_SECRETS_DIR: dataDir,
      LOG_LEVEL: 'ERROR',
      DEFAULT_ADMIN_PASSWORD: 'admin-password-1',
      ACCESS_TOKEN_EXPIRE_SECONDS: '86400',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    cwd: dataDir,
    inMemoryDatabase: !databaseUrl,
    presets: {
      standard: definePreset({
        id: 'standard',
        description: 'standard + license stand-in',
        plugins: (context) => [...withoutLicenseGate(standardPreset.plugins(context)), { plugin: benchLicense(plan) }],
      }),
    },
    port: 0,
    host: '127.0.0.1',
  });
  const stop = async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
    });
    const auth = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
    const indexStart = performance.now();
    const idByDocument = new Map<string, string>();
    for (let start = 0; start < corpus.length; start += filesPerUpload) {
      const form = new FormData();
      for (const doc of corpus.slice(start, start + filesPerUpload))
        form.append('file', new Blob([doc.text]), `${doc.id}.txt`);
      const res = await fetch(`${server.url}/api/docs/upload`, { method: 'POST', body: form, headers: auth });
      if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      for (const d of ((await res.json()) as { documents: Array<{ id: string; filename: string }> }).documents)
        idByDocument.set(d.id, d.filename.replace(/\.txt$/, ''));
    }
    const uploadSeconds = (performance.now() - indexStart) / 1000;
    while (true) {
      const { rows } = await server.kernel.db.query<{ status: string; n: string }>(
        'select status, count(*) as n from document group by status',
      );
      if (rows.every((row) => row.status !== 'pending' && row.status !== 'indexing')) {
        const failed = rows.find((row) => row.status === 'failed');
        if (failed) console.log(`${failed.n} documents failed to index`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const indexSeconds = (performance.now() - indexStart) / 1000;
    const { rows } = await server.kernel.db.query<{ chunks: string; postings: string }>(
      'select (select count(*) from chunk) as chunks, (select count(*) from chunk_term) as postings',
    );
    const search = async (query: string) => {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/search`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query, top_k: 100 }),
      });
      const milliseconds = performance.now() - started;
      if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as {
        items: Array<{ document_id: string }>;
        retrieval_settings: { mode: string };
      };
      if (body.retrieval_settings.mode !== 'lexical')
        throw new Error(`expected lexical mode, got ${body.retrieval_settings.mode}`);
      // Items come best first, so the first chunk of a document is its best: rank documents by it.
      return {
        ranked: [...new Set(body.items.map((item) => idByDocument.get(item.document_id) as string))],
        milliseconds,
      };
    };
    const stats = {
      documents: corpus.length,
      chunks: Number(rows[0]?.chunks),
      postings: Number(rows[0]?.postings),
      indexSeconds,
      uploadSeconds,
    };
    return { search, stats, stop, db: server.kernel.db, url: server.url, auth };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Mean nDCG@10 over the qrels' queries, with the latencies of the searches. */
export async function evaluate(
  index: IndexedCorpus,
  set: Pick<BeirSet, 'queries' | 'qrels'>,
): Promise<{ ndcg: number; latencies: number[]; seconds: number }> {
  const started = performance.now();
  const latencies: number[] = [];
  let total = 0;
  for (const [queryId, relevant] of set.qrels) {
    const { ranked, milliseconds } = await index.search(set.queries.get(queryId) as string);
    latencies.push(milliseconds);
    total += ndcgAt10(ranked, relevant);
  }
  return {
    ndcg: total / set.qrels.size,
    latencies: latencies.sort((a, b) => a - b),
    seconds: (performance.now() - started) / 1000,
  };
}
