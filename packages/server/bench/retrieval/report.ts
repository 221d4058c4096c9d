/** Percentiles and the printed results of bench:retrieval: every target with PASS/MISS, ratios to same-run baselines. */
import type { LoadReport } from './load.js';
import type { Sizes } from './sizes.js';
import type { RecallRun, SearchRun } from './search.js';
import type { ConcurrentOutcome, PairedFirstToken } from './streams.js';
import { spread, type Spread } from './percentiles.js';

const ms = (value: number): string => `${value.toFixed(1)} ms`.padStart(9);
const pct = (s: Spread): string => `p50 ${ms(s.p50)}  p95 ${ms(s.p95)}`;
const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS');

export function printLoad(
  load: LoadReport,
  settings: { dimensions: number; clusters: number; maintenanceWorkMem: string; peakRss: number },
): void {
  const seconds = load.textSeconds + load.postingIndexSeconds + load.vectorSeconds + load.vacuumSeconds;
  console.log(
    `corpus: ${load.documents.toLocaleString('en')} documents, ${load.chunks.toLocaleString('en')} chunks, ${load.postings.toLocaleString('en')} postings, ${settings.dimensions}-d vectors in ${settings.clusters} clusters`,
  );
  console.log(
    `load ${seconds.toFixed(1)} s: chunks + postings ${load.textSeconds.toFixed(1)} s (${(load.chunks / load.textSeconds).toFixed(0)} chunks/s), postings' indexes ${load.postingIndexSeconds.toFixed(1)} s, ` +
      `vectors + HNSW build ${load.vectorSeconds.toFixed(1)} s, vacuum analyze ${load.vacuumSeconds.toFixed(1)} s (maintenance_work_mem ${settings.maintenanceWorkMem})`,
  );
  console.log(`  peak RSS of the bench process (server included) while loading: ${mib(settings.peakRss)}`);
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** Table and index sizes, with bytes per chunk, so that they scale to other corpus sizes. */
export function printSizes(sizes: Sizes, chunks: number): void {
  const perChunk = (bytes: number) => `${(bytes / chunks).toFixed(0)} B/chunk`;
  console.log(`on disk: database ${mib(sizes.databaseBytes)} (${perChunk(sizes.databaseBytes)})`);
  for (const relation of sizes.relations) {
    const indexes = relation.indexes.reduce((sum, index) => sum + index.bytes, 0);
    console.log(
      `  ${relation.table.padEnd(17)} table ${mib(relation.tableBytes).padStart(8)}, ` +
        `indexes ${mib(indexes).padStart(8)} (${perChunk(relation.tableBytes + indexes)})`,
    );
    for (const index of relation.indexes) console.log(`    ${index.name.padEnd(52)} ${mib(index.bytes).padStart(8)}`);
  }
}

export interface Results {
  lexical: SearchRun;
  /** Queries of the most frequent content words only (frequentWordQuery). */
  lexicalFrequent: SearchRun;
  /** The lexical and frequent-word queries again, once the frequent terms' windows are built. */
  lexicalWindows: SearchRun;
  lexicalFrequentWindows: SearchRun;
  termWindows: { watermark: number; terms: number; windows: number; seconds: number; bytes: number };
  dense: SearchRun;
  hybrid: SearchRun;
  hybridFrequent: SearchRun;
  /** Σ df of each measured query's terms: the postings BM25 reads. */
  postings: Spread;
  frequentPostings: Spread;
  /** The bench process's peak resident set while loading the corpus; null when the run reused a kept database. */
  loadPeakRss: number | null;
  recall: RecallRun;
  pairs: PairedFirstToken[];
  concurrent: ConcurrentOutcome;
}

export interface Settings {
  warmUp: number;
  firstTokenDelayMs: number;
  tokenDelayMs: number;
  targets: {
    hybridP95Ms: number;
    lexicalP95Ms: number;
    recallAt10: number;
    sseOverheadMs: number;
    loadPeakRssMb: number;
  };
}

export function printResults(r: Results, s: Settings): void {
  const modes = (run: SearchRun) =>
    Object.entries(run.modes)
      .map(([mode, n]) => `${mode} ${n}`)
      .join(', ');
  const row = (name: string, run: SearchRun, note: string) =>
    `  ${name.padEnd(10)}${pct(run.retrieve)}   round trip ${pct(run.roundTrip)}   answered ${modes(run)}; ${note}`;
  console.log(
    `\nretrieve stage: the server's timing.retrieve over ${r.lexical.queries} sequential POST /api/search (top_k 10) each, after ${s.warmUp} warm-up`,
  );
  console.log(row('lexical', r.lexical, 'server without embedder'));
  const frequent = 'server without embedder, 2–4 of the 20 most frequent content words';
  console.log(row('lex freq', r.lexicalFrequent, frequent));
  const w = r.termWindows;
  const built = `${w.terms} terms, ${w.windows} windows, ${(w.bytes / 1e6).toFixed(1)} MB, built in ${w.seconds.toFixed(1)} s`;
  console.log(row('lexical+w', r.lexicalWindows, `the lexical queries again, term windows built (${built})`));
  console.log(row('lex freq+w', r.lexicalFrequentWindows, 'the frequent-word queries again, term windows built'));
  console.log(
    `  with / without term windows: lexical p50 ${(r.lexicalWindows.retrieve.p50 / r.lexical.retrieve.p50).toFixed(2)}×, ` +
      `p95 ${(r.lexicalWindows.retrieve.p95 / r.lexical.retrieve.p95).toFixed(2)}×; frequent words p50 ` +
      `${(r.lexicalFrequentWindows.retrieve.p50 / r.lexicalFrequent.retrieve.p50).toFixed(2)}×, ` +
      `p95 ${(r.lexicalFrequentWindows.retrieve.p95 / r.lexicalFrequent.retrieve.p95).toFixed(2)}×`,
  );
  console.log(row('dense', r.dense, 'stop-word queries: embed the query, HNSW top-50, visibility check'));
  console.log(row('hybrid', r.hybrid, 'the lexical queries again: BM25 ∥ dense, fused by RRF'));
  console.log(row('hyb freq', r.hybridFrequent, 'the frequent-word queries again'));
  console.log(
    `  hybrid / lexical on the same queries: p50 ${(r.hybrid.retrieve.p50 / r.lexical.retrieve.p50).toFixed(2)}×, p95 ${(r.hybrid.retrieve.p95 / r.lexical.retrieve.p95).toFixed(2)}×`,
  );
  console.log(
    `  postings BM25 reads per query (Σ df of its terms): p50 ${r.postings.p50.toLocaleString('en')}, p95 ${r.postings.p95.toLocaleString('en')}`,
  );
  console.log(
    `  postings of the frequent-word queries: p50 ${r.frequentPostings.p50.toLocaleString('en')}, ` +
      `p95 ${r.frequentPostings.p95.toLocaleString('en')}`,
  );
  console.log(
    `vector store alone, top-10 of ${r.recall.queries} query vectors: HNSW ${pct(r.recall.hnsw)}; exact scan ${pct(r.recall.exact)}; exact takes ${(r.recall.exact.p50 / r.recall.hnsw.p50).toFixed(1)}× the HNSW time (p50)`,
  );

  const http = spread(r.pairs.map((p) => p.httpFirstDelta));
  const direct = spread(r.pairs.map((p) => p.backendFirstToken));
  const raw = spread(r.pairs.map((p) => p.httpFirstDelta - p.backendFirstToken));
  const work = spread(r.pairs.map((p) => p.classifyRetrieve));
  const pure = spread(r.pairs.map((p) => p.httpFirstDelta - p.backendFirstToken - p.classifyRetrieve));
  console.log(
    `\nchat, time to first token (${r.pairs.length} pairs, each chat replayed at once against the backend; model: first token after ${s.firstTokenDelayMs} ms, then one every ${s.tokenDelayMs} ms)`,
  );
  console.log(
    `  POST /api/chat (SSE) → first delta      ${pct(http)}   ${(http.p50 / direct.p50).toFixed(2)}× the direct call (p50)`,
  );
  console.log(`  llm-openai generate() → first token     ${pct(direct)}`);
  console.log(`  difference, raw                         ${pct(raw)}`);
  console.log(`  of which classify + retrieve (done)     ${pct(work)}`);
  console.log(
    `  difference − classify − retrieve        ${pct(pure)}   (HTTP + SSE + prompt: the figure judged below)`,
  );

  const c = r.concurrent;
  const clean = c.done === c.streams && c.errorEvents === 0 && c.failed === 0;
  const line = (name: string, value: string, target: string, pass: boolean, note = '') =>
    `  ${name.padEnd(46)}${value.padStart(10)}   target ${target.padEnd(9)} ${verdict(pass)}${note ? `   ${note}` : ''}`;
  console.log('\ntargets');
  console.log(
    line(
      'hybrid retrieve p95',
      ms(r.hybrid.retrieve.p95).trim(),
      `≤ ${s.targets.hybridP95Ms} ms`,
      r.hybrid.retrieve.p95 <= s.targets.hybridP95Ms,
      `(${(r.hybrid.retrieve.p95 / s.targets.hybridP95Ms).toFixed(2)}× the target)`,
    ),
  );
  const lexicalLine = (name: string, run: SearchRun, max: number) =>
    line(name, ms(run.retrieve.p95).trim(), `≤ ${max} ms`, run.retrieve.p95 <= max);
  console.log(lexicalLine('lexical retrieve p95', r.lexical, s.targets.lexicalP95Ms));
  console.log(lexicalLine('lexical retrieve p95, frequent words', r.lexicalFrequent, s.targets.lexicalP95Ms));
  console.log(lexicalLine('lexical retrieve p95, term windows', r.lexicalWindows, s.targets.lexicalP95Ms));
  console.log(
    lexicalLine('lexical p95, frequent words, term windows', r.lexicalFrequentWindows, s.targets.lexicalP95Ms),
  );
  console.log(lexicalLine('hybrid retrieve p95, frequent words', r.hybridFrequent, s.targets.hybridP95Ms));
  if (r.loadPeakRss !== null)
    console.log(
      line(
        'peak RSS of the load (bench process)',
        mib(r.loadPeakRss),
        `≤ ${s.targets.loadPeakRssMb} MB`,
        r.loadPeakRss <= s.targets.loadPeakRssMb * 2 ** 20,
      ),
    );
  console.log(
    line(
      `HNSW recall@10 against exact (${r.recall.queries} queries)`,
      r.recall.recallAt10.toFixed(4),
      `≥ ${s.targets.recallAt10}`,
      r.recall.recallAt10 >= s.targets.recallAt10,
    ),
  );
  console.log(
    line(
      'SSE overhead p50 (minus classify + retrieve)',
      ms(pure.p50).trim(),
      `≤ ${s.targets.sseOverheadMs} ms`,
      pure.p50 <= s.targets.sseOverheadMs,
      `(p95 ${ms(pure.p95).trim()}; raw p50 ${ms(raw.p50).trim()})`,
    ),
  );
  console.log(
    line(
      `${c.streams} concurrent chat streams`,
      `${c.done} done`,
      '0 errors',
      clean,
      `(error events ${c.errorEvents}, failed requests ${c.failed}, wall ${c.wallSeconds.toFixed(2)} s, first delta ${pct(spread(c.firstDeltas)).replace(/\s+/g, ' ')})`,
    ),
  );
  if (c.firstFailure) console.log(`    first failure: ${c.firstFailure}`);
}
