/**
 * npm run bench:quality [-- scifact|xquad …] — BM25 retrieval quality through the real HTTP API
 * (upload, indexing, POST /api/search with top_k 100, lexical: no embedder), nDCG@10 per data set:
 * - BEIR SciFact: the 5,183 abstracts (title + text, one .txt each), the 300 test claims, next to
 *   BM25's published 0.665 and the 0.6823 of the English-only analyzer this one replaced.
 * - XQuAD (../shared/data/xquad, one folder per language): each language in an index of its own,
 *   then all of them in one index, next to the per-language reference of its README; and, in each
 *   language's own index, every question through POST /api/chat (no chat model: the extractive
 *   backend), the share of answers holding the gold answer, next to the README's reference.
 *   `xquad-answers` runs only the per-language indexes (nDCG and answers).
 * Embedded database unless DATABASE_URL is set. The analyzer is the product's: nothing here tells it
 * a language.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureAnswers, readGoldAnswers } from './quality/answers.js';
import { evaluate, indexCorpus, readBeir, type BeirSet, type IndexedCorpus } from './quality/beir.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dataRoot = path.resolve(repositoryRoot, '../shared/data');
/** XQuAD README: BM25 (k1 0.9, b 0.4) with per-language analysis, nDCG@10. */
const xquadReference: Record<string, number> = { en: 0.962, de: 0.941, zh: 0.964, ar: 0.946 };
/**
 * XQuAD README: the best BM25 paragraph's two sentences holding most question terms contain the gold
 * answer for this share of the questions.
 */
const xquadAnswerReference: Record<string, number> = { en: 0.824, de: 0.761, zh: 0.825, ar: 0.775 };

function report(
  label: string,
  index: IndexedCorpus,
  result: Awaited<ReturnType<typeof evaluate>>,
  reference: number,
): void {
  const { stats } = index;
  const p = (q: number) =>
    result.latencies[Math.min(result.latencies.length - 1, Math.floor(q * result.latencies.length))]?.toFixed(1);
  console.log(
    `${label.padEnd(16)} nDCG@10 ${result.ndcg.toFixed(4)}  reference ${reference.toFixed(4)}  ratio ${(result.ndcg / reference).toFixed(3)}  | ` +
      `${stats.documents} docs, ${stats.chunks} chunks, ${stats.postings} postings, indexed in ${stats.indexSeconds.toFixed(1)} s ` +
      `(${(stats.documents / stats.indexSeconds).toFixed(1)} docs/s) | ${result.latencies.length} queries, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms`,
  );
}

async function measure(
  label: string,
  set: BeirSet,
  reference: number,
  answers?: { gold: Map<string, string>; reference: number },
): Promise<number> {
  const index = await indexCorpus(set.corpus);
  try {
    const result = await evaluate(index, set);
    report(label, index, result, reference);
    if (answers) {
      const measured = await measureAnswers(index, set.queries, answers.gold);
      const p50 = measured.latencies[Math.floor(measured.latencies.length / 2)]?.toFixed(1);
      const { share, questions, noAnswer } = measured;
      console.log(
        `${`${label} answers`.padEnd(16)} gold in answer ${share.toFixed(4)}  ` +
          `reference ${answers.reference.toFixed(4)}  ratio ${(share / answers.reference).toFixed(3)}  | ` +
          `${questions} questions through POST /api/chat (extractive), ` +
          `"no document answers" ${noAnswer.toFixed(4)}, p50 ${p50} ms`,
      );
    }
    return result.ndcg;
  } finally {
    await index.stop();
  }
}

async function xquad(perLanguageOnly: boolean): Promise<void> {
  const folder = path.join(dataRoot, 'xquad');
  const languages = fs
    .readdirSync(folder)
    .filter((name) => fs.existsSync(path.join(folder, name, 'corpus.jsonl')))
    .sort();
  const sets = new Map(languages.map((language) => [language, readBeir(path.join(folder, language), `${language}-`)]));
  for (const [language, set] of sets)
    await measure(`xquad ${language}`, set, xquadReference[language] ?? Number.NaN, {
      gold: readGoldAnswers(path.join(folder, language), `${language}-`),
      reference: xquadAnswerReference[language] ?? Number.NaN,
    });
  if (perLanguageOnly) return;
  // All languages in one index; each language's questions scored on it.
  const all = [...sets.values()];
  const index = await indexCorpus(all.flatMap((set) => set.corpus));
  try {
    for (const [language, set] of sets)
      report(`xquad ${language} (all)`, index, await evaluate(index, set), xquadReference[language] ?? Number.NaN);
  } finally {
    await index.stop();
  }
}

async function main(): Promise<void> {
  const parts = process.argv.slice(2);
  const wanted = (part: string) => parts.length === 0 || parts.includes(part);
  console.log(
    `database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  if (wanted('scifact')) await measure('scifact', readBeir(path.join(dataRoot, 'beir/scifact')), 0.665);
  if (wanted('xquad') || parts.includes('xquad-answers')) await xquad(!wanted('xquad'));
  console.log(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

await main();
