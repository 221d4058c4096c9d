/**
 * node --import tsx --conditions=docqa-source packages/server/bench/analyzer.ts [git revision]
 * The analyzer's cost per chunk against an older one in the same run: the revision's
 * packages/core/src/lexical (default: the English-only analyzer before language detection) is
 * written to a temporary folder and imported beside today's. Each side analyses the same texts —
 * SciFact's abstracts and XQuAD's paragraphs — counting term frequencies as the ingest does; today's
 * also detects each text's language. Rounds alternate to spread the machine's other load evenly.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyzeChunk, LanguageDetector } from '@docqa/core';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// By default the parent of the commit that deleted the hand-written Porter stemmer.
const revision =
  process.argv[2] ??
  `${execFileSync('git', ['log', '-1', '--format=%H', '--diff-filter=D', '--', 'packages/core/src/lexical/porter-stemmer.ts'], { cwd: repositoryRoot, encoding: 'utf8' }).trim()}~1`;
const dataRoot = path.resolve(repositoryRoot, '../shared/data');

const oldFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-old-analyzer-'));
for (const file of ['analyzer.ts', 'porter-stemmer.ts']) {
  fs.writeFileSync(
    path.join(oldFolder, file),
    execFileSync('git', ['show', `${revision}:packages/core/src/lexical/${file}`], { cwd: repositoryRoot }),
  );
}
const old = (await import(pathToFileURL(path.join(oldFolder, 'analyzer.ts')).href)) as {
  termFrequencies(text: string): { length: number };
};

const readTexts = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text);
const sets: Record<string, string[]> = { scifact: readTexts(path.join(dataRoot, 'beir/scifact/corpus.jsonl')) };
for (const language of fs
  .readdirSync(path.join(dataRoot, 'xquad'))
  .filter((name) => !name.includes('.'))
  .sort())
  sets[`xquad ${language}`] = readTexts(path.join(dataRoot, 'xquad', language, 'corpus.jsonl'));

const detector = new LanguageDetector();
const sides = {
  old: (text: string) => old.termFrequencies(text).length,
  new: (text: string) => analyzeChunk(text, detector.detect(text)).length,
};
const rounds = 5;
for (const [name, texts] of Object.entries(sets)) {
  const best: Record<string, number> = { old: Infinity, new: Infinity };
  for (let round = 0; round <= rounds; round++) {
    for (const [side, run] of Object.entries(sides)) {
      const started = performance.now();
      for (const text of texts) run(text);
      // Round 0 warms up (JIT, segmenter and stemmer caches); the best of the others is kept.
      if (round > 0) best[side] = Math.min(best[side] as number, (performance.now() - started) / texts.length);
    }
  }
  const chars = texts.reduce((sum, text) => sum + text.length, 0) / texts.length;
  console.log(
    `${name.padEnd(10)} ${texts.length} texts of ${chars.toFixed(0)} chars: old ${(1000 * best.old!).toFixed(1)} µs, new ${(1000 * best.new!).toFixed(1)} µs per chunk, ratio ${(best.new! / best.old!).toFixed(2)}`,
  );
}
console.log(
  `load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
fs.rmSync(oldFolder, { recursive: true, force: true });
