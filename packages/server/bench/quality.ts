/**
 * npm run bench:quality — BM25 retrieval quality on BEIR SciFact through the real HTTP API: upload
 * the 5,183 abstracts (title + text, one .txt each), wait for indexing, run the 300 test claims
 * through POST /api/search (top_k 100, lexical: no embedder), rank documents by their best chunk
 * and compute nDCG@10 against the test qrels, next to BM25's published 0.665.
 * Embedded database unless DATABASE_URL is set. The analyzer is the product's one setting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { definePreset } from '@docqa/plugin-api';
import { testSecrets } from '@docqa/kernel/testing';
import { standardPreset } from '../src/presets/standard.js';
import { withoutLicenseGate } from '../src/testing/standard-with-license.js';
import { startServer } from '../src/server.js';
import { licenseStandIn } from '../src/testing/license-stand-in.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scifact = path.resolve(repositoryRoot, '../shared/data/beir/scifact');
const referenceNdcg = 0.665;
const filesPerUpload = 20;

// The free plan holds 100 documents; a license stand-in with room for the whole corpus.
const benchLicense = licenseStandIn(() => ({ plan: 'PRO', limits: { documents: null, fileSizeBytes: null, storageBytes: null } }));

const readJsonLines = <T>(file: string): T[] => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);

function readQrels(): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(path.join(scifact, 'qrels/test.tsv'), 'utf8').split('\n').slice(1)) {
    const [queryId, corpusId, score] = line.trim().split('\t');
    if (!queryId || !corpusId) continue;
    if (!qrels.has(queryId)) qrels.set(queryId, new Map());
    qrels.get(queryId)?.set(corpusId, Number(score));
  }
  return qrels;
}

/** nDCG@10 with graded gains (2^rel − 1) as trec_eval and BEIR compute it. */
function ndcgAt10(ranked: string[], relevant: Map<string, number>): number {
  const dcg = ranked.slice(0, 10).reduce((sum, id, i) => sum + (2 ** (relevant.get(id) ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, 10).reduce((sum, rel, i) => sum + (2 ** rel - 1) / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

async function main(): Promise<void> {
  const corpus = readJsonLines<{ _id: string; title: string; text: string }>(path.join(scifact, 'corpus.jsonl'));
  const queries = new Map(readJsonLines<{ _id: string; text: string }>(path.join(scifact, 'queries.jsonl')).map((q) => [q._id, q.text]));
  const qrels = readQrels();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-quality-'));
  const databaseUrl = process.env.DATABASE_URL;
  const server = await startServer({
    env: { ...testSecrets, DOCQA_DATA_DIR: dataDir, DOCQA_SECRETS_DIR: dataDir, LOG_LEVEL: 'ERROR', DEFAULT_ADMIN_PASSWORD: 'admin-password-1', ACCESS_TOKEN_EXPIRE_SECONDS: '86400', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    cwd: dataDir,
    inMemoryDatabase: !databaseUrl,
    presets: { standard: definePreset({ id: 'standard', description: 'standard + license stand-in', plugins: (context) => [...withoutLicenseGate(standardPreset.plugins(context)), { plugin: benchLicense }] }) },
    port: 0,
    host: '127.0.0.1',
  });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }) });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const auth = { authorization: `Bearer ${token}` };
    const indexStart = performance.now();
    const idByDocument = new Map<string, string>();
    for (let start = 0; start < corpus.length; start += filesPerUpload) {
      const form = new FormData();
      for (const doc of corpus.slice(start, start + filesPerUpload)) form.append('file', new Blob([`${doc.title}\n\n${doc.text}`]), `${doc._id}.txt`);
      const res = await fetch(`${server.url}/api/docs/upload`, { method: 'POST', body: form, headers: auth });
      if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      for (const d of ((await res.json()) as { documents: Array<{ id: string; filename: string }> }).documents) idByDocument.set(d.id, d.filename.replace(/\.txt$/, ''));
    }
    const uploadSeconds = (performance.now() - indexStart) / 1000;
    while (true) {
      const { rows } = await server.kernel.db.query<{ status: string; n: string }>('select status, count(*) as n from document group by status');
      const pending = rows.filter((row) => row.status === 'pending' || row.status === 'indexing').reduce((sum, row) => sum + Number(row.n), 0);
      if (pending === 0) {
        const failed = rows.find((row) => row.status === 'failed');
        if (failed) console.log(`${failed.n} documents failed to index`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const indexSeconds = (performance.now() - indexStart) / 1000;
    const stats = (await server.kernel.db.query<{ chunks: string; postings: string }>('select (select count(*) from chunk) as chunks, (select count(*) from chunk_term) as postings')).rows[0];

    const queryStart = performance.now();
    const latencies: number[] = [];
    let total = 0;
    for (const [queryId, relevant] of qrels) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/search`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: queries.get(queryId), top_k: 100 }) });
      latencies.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { items: Array<{ document_id: string }>; retrieval_settings: { mode: string } };
      if (body.retrieval_settings.mode !== 'lexical') throw new Error(`expected lexical mode, got ${body.retrieval_settings.mode}`);
      // Items come best first, so the first chunk of a document is its best: rank documents by it.
      const ranked = [...new Set(body.items.map((item) => idByDocument.get(item.document_id) as string))];
      total += ndcgAt10(ranked, relevant);
    }
    const querySeconds = (performance.now() - queryStart) / 1000;
    latencies.sort((a, b) => a - b);
    const ndcg = total / qrels.size;
    const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(1);
    console.log(`database: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`);
    console.log(`corpus: ${corpus.length} documents, ${stats?.chunks} chunks, ${stats?.postings} postings`);
    console.log(`indexing: ${indexSeconds.toFixed(1)} s (${(corpus.length / indexSeconds).toFixed(1)} documents/s; uploads took ${uploadSeconds.toFixed(1)} s)`);
    console.log(`queries: ${qrels.size} in ${querySeconds.toFixed(1)} s (${(qrels.size / querySeconds).toFixed(1)} queries/s sequential; p50 ${percentile(0.5)} ms, p95 ${percentile(0.95)} ms)`);
    console.log(`nDCG@10: ${ndcg.toFixed(4)}   BM25 reference: ${referenceNdcg}   ratio: ${(ndcg / referenceNdcg).toFixed(3)}`);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
