/**
 * The answer part of npm run bench:quality: each question through POST /api/chat (the product's
 * default top_k and token budget) on a server without a chat model, so on the extractive backend,
 * and the share of answers holding the data set's gold answer verbatim.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { IndexedCorpus } from './beir.js';

/** The gold answer of each question of a BEIR folder whose queries carry `metadata.answer` (XQuAD). */
export function readGoldAnswers(folder: string, prefix = ''): Map<string, string> {
  const answers = new Map<string, string>();
  for (const line of fs.readFileSync(path.join(folder, 'queries.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const query = JSON.parse(line) as { _id: string; metadata?: { answer?: string } };
    if (query.metadata?.answer) answers.set(prefix + query._id, query.metadata.answer);
  }
  return answers;
}

export interface AnswerShare {
  /** Answers holding the gold answer, over all questions. */
  share: number;
  /** Answers saying that no document answers (the relevance floor), over all questions. */
  noAnswer: number;
  questions: number;
  latencies: number[];
}

/** Asks every question with a gold answer; refuses to measure anything but the extractive backend. */
export async function measureAnswers(
  index: IndexedCorpus,
  queries: Map<string, string>,
  gold: Map<string, string>,
): Promise<AnswerShare> {
  const info = await fetch(`${index.url}/api/model-info`, { headers: index.auth });
  const backend = ((await info.json()) as { backend: string }).backend;
  if (backend !== 'extractive') throw new Error(`expected the extractive backend, got ${backend}`);
  let held = 0;
  let noAnswer = 0;
  const latencies: number[] = [];
  for (const [queryId, answer] of gold) {
    const started = performance.now();
    const res = await fetch(`${index.url}/api/chat`, {
      method: 'POST',
      headers: { ...index.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: queries.get(queryId) }),
    });
    if (res.status !== 200) throw new Error(`chat answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { answer: string };
    latencies.push(performance.now() - started);
    if (body.answer.includes(answer)) held += 1;
    if (/^No (indexed )?document/.test(body.answer)) noAnswer += 1;
  }
  return {
    share: held / gold.size,
    noAnswer: noAnswer / gold.size,
    questions: gold.size,
    latencies: latencies.sort((a, b) => a - b),
  };
}
