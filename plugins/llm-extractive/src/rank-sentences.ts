import { analyzeEnglish, termFrequencies } from '@docqa/core';
import type { GroundingPassage } from '@docqa/plugin-api';
import { splitSentences } from './sentences.js';

/** A sentence of a passage, with where it came from so the answer can cite and order it. */
export interface CandidateSentence {
  /** The passage's citation number; lower numbers were retrieved as more relevant. */
  passageIndex: number;
  /** Its place among its passage's sentences, from 0. */
  position: number;
  text: string;
}

export interface RankedSentence extends CandidateSentence {
  score: number;
}

export interface RankingOptions {
  minMatchedTerms: number;
  minScoreRatio: number;
}

// BM25's usual k1: a term repeated in a sentence adds little.
const k1 = 1.2;

/**
 * The sentences of the passages that match the question, best first. Terms are the same stemmed
 * terms DocQA's lexical search uses, so "archived" matches "archive". Each sentence is scored with
 * BM25, treating the given sentences as the collection: a question term that appears in few of them
 * weighs more than one that appears everywhere. BM25's length normalisation is left out on purpose:
 * an answer sentence carries the answer besides the question's words, so it is longer than one that
 * only restates the question ("The archive holds invoices."), and must not lose to it for that.
 * Sentences matching the same terms therefore tie, and ties go to the better-retrieved passage —
 * retrieval saw the whole passage, not one sentence — then to the earlier sentence. A sentence must
 * share at least `minMatchedTerms` distinct question terms (at most all of them, at least one) and
 * reach `minScoreRatio` of the best score.
 */
export function rankSentences(
  question: string,
  passages: readonly GroundingPassage[],
  options: RankingOptions,
): RankedSentence[] {
  const questionTerms = new Set(analyzeEnglish(question));
  if (questionTerms.size === 0) return [];
  const candidates = candidateSentences(passages).map((candidate) => ({
    candidate,
    frequencies: termFrequencies(candidate.text).frequencies,
  }));
  if (candidates.length === 0) return [];

  const inverseFrequency = new Map<string, number>();
  for (const term of questionTerms) {
    const containing = candidates.filter(({ frequencies }) => frequencies.has(term)).length;
    inverseFrequency.set(term, Math.log(1 + (candidates.length - containing + 0.5) / (containing + 0.5)));
  }

  const requiredMatches = Math.min(options.minMatchedTerms, questionTerms.size);
  const matching: RankedSentence[] = [];
  for (const { candidate, frequencies } of candidates) {
    let score = 0;
    let matchedTerms = 0;
    for (const term of questionTerms) {
      const frequency = frequencies.get(term) ?? 0;
      if (frequency === 0) continue;
      matchedTerms += 1;
      score += ((inverseFrequency.get(term) ?? 0) * frequency * (k1 + 1)) / (frequency + k1);
    }
    if (matchedTerms >= requiredMatches) matching.push({ ...candidate, score });
  }

  matching.sort((a, b) => b.score - a.score || a.passageIndex - b.passageIndex || a.position - b.position);
  const bestScore = matching[0]?.score ?? 0;
  return matching.filter(({ score }) => score >= bestScore * options.minScoreRatio);
}

/**
 * Every sentence of every passage, better-retrieved passages first. A line that only repeats the
 * passage's title (the heading a chunk starts with) is not an answer, and a sentence already seen in
 * a better passage (overlapping chunks of one document) is not quoted twice.
 */
function candidateSentences(passages: readonly GroundingPassage[]): CandidateSentence[] {
  const seen = new Set<string>();
  const candidates: CandidateSentence[] = [];
  for (const passage of [...passages].sort((a, b) => a.index - b.index)) {
    seen.add(comparable(passage.title));
    splitSentences(passage.text).forEach((text, position) => {
      const key = comparable(text);
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push({ passageIndex: passage.index, position, text });
    });
  }
  return candidates;
}

function comparable(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
