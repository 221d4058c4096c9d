import type { RankedSentence } from './rank-sentences.js';

export interface AnswerLimits {
  maxSentences: number;
  /** The request's maxTokens: this backend has no tokenizer, so a word counts as one token. */
  maxWords: number;
}

/**
 * The answer quoted from ranked sentences, within the limits. Sentences are chosen best first, and
 * a sentence too long for the words left is skipped for a shorter one, so the answer ends on a whole
 * sentence; only when the best sentence alone is too long is it cut, marked with "…". The chosen
 * sentences are then read in passage order and in their order within a passage, and each run of
 * sentences from one passage is followed by its citation: "… ten years. [1] Reset … page. [2]".
 * Each sentence is budgeted with a citation of its own, so merging citations only saves words.
 */
export function composeAnswer(ranked: readonly RankedSentence[], limits: AnswerLimits): string {
  const [best, ...rest] = ranked;
  if (!best || limits.maxWords < 1) return '';
  if (wordCount(best.text) + 1 > limits.maxWords) return truncatedAnswer(best, limits.maxWords);

  const chosen = [best];
  let wordsUsed = wordCount(best.text) + 1;
  for (const sentence of rest) {
    if (chosen.length >= limits.maxSentences) break;
    const cost = wordCount(sentence.text) + 1;
    if (wordsUsed + cost > limits.maxWords) continue;
    chosen.push(sentence);
    wordsUsed += cost;
  }
  chosen.sort((a, b) => a.passageIndex - b.passageIndex || a.position - b.position);

  const cited: string[] = [];
  let run: RankedSentence[] = [];
  for (const sentence of chosen) {
    if (run.length > 0 && run[0]!.passageIndex !== sentence.passageIndex) {
      cited.push(citedRun(run));
      run = [];
    }
    run.push(sentence);
  }
  cited.push(citedRun(run));
  return cited.join(' ');
}

/** The first `maxWords` words of a text, ending in "…" when words were left out. */
export function cutToWords(text: string, maxWords: number): string {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length <= maxWords) return words.join(' ');
  if (maxWords < 1) return '';
  const kept = words.slice(0, maxWords);
  // "vault,…" reads as a typo; the trailing punctuation goes before the ellipsis.
  kept[kept.length - 1] = `${kept[kept.length - 1]!.replace(/[,;:\-–]+$/, '')}…`;
  return kept.join(' ');
}

/** The pieces an answer streams as: each word with the white space before it, so they join back. */
export function wordPieces(text: string): string[] {
  return text.trim().match(/\s*\S+/g) ?? [];
}

function truncatedAnswer(sentence: RankedSentence, maxWords: number): string {
  // With room for one word only, a citation alone would say nothing; the word at least starts the answer.
  if (maxWords === 1) return cutToWords(sentence.text, 1);
  return `${cutToWords(sentence.text, maxWords - 1)} ${citation(sentence.passageIndex)}`;
}

/**
 * Sentences of one passage followed by one citation. Units that end without punctuation (table rows,
 * list items, headings) get a period before the next sentence, so that "Plan: Pro; Price: 10" and
 * "Plan: Team; Price: 25" do not run together into one row; a unit ending in ":" introduces the next.
 */
function citedRun(run: readonly RankedSentence[]): string {
  let text = '';
  for (const { text: sentence } of run) {
    if (text !== '' && !/[.!?…:。！？]["'”’)\]]*$/.test(text)) text += '.';
    text += (text === '' ? '' : ' ') + sentence;
  }
  return `${text} ${citation(run[0]!.passageIndex)}`;
}

function citation(passageIndex: number): string {
  return `[${passageIndex}]`;
}

function wordCount(text: string): number {
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '').length;
}
