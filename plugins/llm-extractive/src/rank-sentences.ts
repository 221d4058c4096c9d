import { analyze, analyzeQuery, type LanguageDetector } from '@docqa/core';
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

/** What the passages say to a question: the best passage's sentences, best first, and how well it matches. */
export interface PassageAnswer {
  /** Sentences of one passage only, best first; empty when no sentence shares a term with the question. */
  sentences: RankedSentence[];
  /**
   * The share of the question's weight (the idf of its terms) that the chosen passage holds, 0–1.
   * A question term no passage contains weighs most, so a question about something the documents do
   * not mention stays low even when retrieval found passages sharing its common words.
   */
  coverage: number;
}

export interface RankingOptions {
  minMatchedTerms: number;
  minScoreRatio: number;
}

// BM25's usual k1: a term repeated in a sentence adds little.
const k1 = 1.2;
/**
 * Words without Han and Kana bigrams: a question's bigrams that a sentence lacks would dilute the
 * share of its weight a passage covers. With them XQuAD zh answers held the gold answer for 0.798
 * of the questions and 0.122 got "no document answers"; with words alone 0.874 and 0.021.
 */
const wordsOnly = { bigrams: false } as const;

interface AnalysedSentence extends CandidateSentence {
  /** The sentence's analysed terms in order, for their counts and how close together they stand. */
  terms: string[];
  frequencies: Map<string, number>;
}

/**
 * The sentences that answer the question, all from one passage. Each passage is analysed in its own
 * language as lexical search analysed its chunk (the language stored at indexing, detected when a
 * passage has none; with its stop words and stemmer), the
 * question in its language or, when too short to tell, in each of the passages' languages.
 *
 * A sentence scores BM25 over the question's terms, with the given sentences as the collection (a term
 * in few of them weighs more), without length normalisation: an answer sentence carries the answer
 * besides the question's words, and must not lose to one that only restates the question; ties go
 * to the sentence whose matched terms stand closest. One passage is quoted: the one whose best
 * sentence scores highest, weighed by retrieval's order (`retrievalPrior`); sentences of other
 * passages are never added, so two documents (or two sections) are never stitched into one claim.
 */
export function answerFromPassages(
  question: string,
  passages: readonly GroundingPassage[],
  options: RankingOptions,
  detector: LanguageDetector,
): PassageAnswer {
  const ordered = [...passages].sort((a, b) => a.index - b.index);
  // The language indexing stored for a passage's chunk, which lexical search analysed it in too;
  // detected only for passages that come without one.
  const languages = detector.detectChunks(
    ordered.map((passage) => passage.text),
    ordered.map((passage) => passage.language),
  );
  const questionTerms = [...analyzeQuery(question, detector, [...new Set(languages)], wordsOnly).keys()];
  const candidates = candidateSentences(ordered, languages);
  if (questionTerms.length === 0 || candidates.length === 0) return { sentences: [], coverage: 0 };

  const inverseFrequency = new Map<string, number>();
  for (const term of questionTerms) {
    const containing = candidates.filter(({ frequencies }) => frequencies.has(term)).length;
    inverseFrequency.set(term, Math.log(1 + (candidates.length - containing + 0.5) / (containing + 0.5)));
  }
  const requiredMatches = Math.min(options.minMatchedTerms, questionTerms.length);
  const byPassage = new Map<number, WindowedSentence[]>();
  for (const candidate of candidates) {
    const matched = questionTerms.filter((term) => candidate.frequencies.has(term));
    if (matched.length === 0 || matched.length < requiredMatches) continue;
    let score = 0;
    for (const term of matched) {
      const frequency = candidate.frequencies.get(term) ?? 0;
      score += ((inverseFrequency.get(term) ?? 0) * frequency * (k1 + 1)) / (frequency + k1);
    }
    const { terms, frequencies: _frequencies, ...sentence } = candidate;
    const list = byPassage.get(candidate.passageIndex) ?? [];
    list.push({ ...sentence, score, window: matchWindow(terms, new Set(matched)) });
    byPassage.set(candidate.passageIndex, list);
  }

  let best: { index: number; strength: number; sentences: WindowedSentence[] } | null = null;
  for (const [index, sentences] of byPassage) {
    sentences.sort((a, b) => b.score - a.score || a.window - b.window || a.position - b.position);
    const strength = sentences[0]!.score * retrievalPrior(index);
    if (!best || strength > best.strength || (strength === best.strength && index < best.index))
      best = { index, strength, sentences };
  }
  if (!best) return { sentences: [], coverage: 0 };
  const chosen = best;
  const bestScore = chosen.sentences[0]!.score;
  // The whole passage with its title counts, headings and repeated lines included: "Contract B-2"
  // above "The notice period is one month" is what makes that sentence answer about B-2.
  const position = ordered.findIndex((passage) => passage.index === chosen.index);
  const { title, text } = ordered[position]!;
  const passageTerms = new Set(analyze(`${title}\n${text}`, languages[position] ?? null, wordsOnly));
  const weight = (term: string) => inverseFrequency.get(term) ?? 0;
  const total = questionTerms.reduce((sum, term) => sum + weight(term), 0);
  const held = questionTerms.reduce((sum, term) => sum + (passageTerms.has(term) ? weight(term) : 0), 0);
  return {
    sentences: chosen.sentences
      .filter(({ score }) => score >= bestScore * options.minScoreRatio)
      .map(({ window: _window, ...sentence }) => sentence),
    coverage: total > 0 ? held / total : 0,
  };
}

interface WindowedSentence extends RankedSentence {
  window: number;
}

/**
 * How much retrieval's order counts when choosing the passage to quote: a passage's best sentence
 * score is multiplied by 1 + 3 / its citation number (×4 for the first, ×2.5 for the second, ×2 for
 * the third…), so a later passage is quoted only when its best sentence clearly outscores the first's.
 * Retrieval ranked whole passages with the whole corpus's statistics; a sentence's score sees only a
 * few passages. On XQuAD (docs/chat.md) quoting by sentence score alone lost 3–5 points to this.
 */
function retrievalPrior(passageIndex: number): number {
  return 1 + 3 / Math.max(1, passageIndex);
}

/**
 * The smallest number of consecutive terms holding every matched question term: between two
 * sentences scoring the same, the one with the question's words in one phrase goes first. Only a
 * tie-break: as a weight on the score it lost 1–3 points on XQuAD, where the answering sentence
 * often paraphrases the question around the answer.
 */
function matchWindow(terms: readonly string[], matched: ReadonlySet<string>): number {
  const last = new Map<string, number>();
  let window = Number.POSITIVE_INFINITY;
  terms.forEach((term, position) => {
    if (!matched.has(term)) return;
    last.set(term, position);
    if (last.size === matched.size) window = Math.min(window, position - Math.min(...last.values()) + 1);
  });
  return window;
}

/**
 * Every sentence of every passage, better-retrieved passages first, analysed in its passage's
 * language. A line that only repeats the passage's title (the heading a chunk starts with) is not an
 * answer, and a sentence already seen in a better passage (overlapping chunks) is not quoted twice.
 */
function candidateSentences(
  passages: readonly GroundingPassage[],
  languages: readonly (string | null)[],
): AnalysedSentence[] {
  const seen = new Set<string>();
  const candidates: AnalysedSentence[] = [];
  passages.forEach((passage, i) => {
    const language = languages[i] ?? null;
    seen.add(comparable(passage.title));
    splitSentences(passage.text, language).forEach((text, position) => {
      const key = comparable(text);
      if (seen.has(key)) return;
      seen.add(key);
      const terms = analyze(text, language, wordsOnly);
      const frequencies = new Map<string, number>();
      for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
      candidates.push({ passageIndex: passage.index, position, text, terms, frequencies });
    });
  });
  return candidates;
}

function comparable(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
