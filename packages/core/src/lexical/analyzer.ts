import { languageRules } from './languages.js';
import type { LanguageDetector } from './language-detection.js';

/**
 * The version of the analysis below. Postings written under another version are re-analysed by the
 * lexical re-index job at start (packages/core/src/modules/search/lexical-reindex.ts): bump it with any
 * change that alters a term, the language detector's database included (3: eld's extra-small one;
 * 4: Han and Kana bigrams; 5: words split between letters and digits, stems stemmed to a fixed point).
 */
export const analyzerVersion = 5;

/** Lucene's StandardTokenizer cuts tokens at 255 characters; longer runs are noise (base64, hashes). */
const maxTokenLength = 255;

/** Scripts written without spaces between words, whose words only ICU's dictionaries find. */
const unspacedScript =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// Format characters (a soft hyphen) stay inside a word, as UAX #29's rule WB4 keeps them.
const wordStart = '[\\p{L}\\p{N}]';
const wordCharacter = '[\\p{L}\\p{M}\\p{N}\\p{Pc}\\p{Cf}]';
/**
 * UAX #29's word boundaries for text in scripts with spaces, as ICU applies them: a run of letters,
 * marks, digits and connectors that continues across one of MidLetter or MidNumLet between letters
 * ("don't", "U.S.A", ICU's "a:b") or MidNum or MidNumLet between digits ("3.14", "1,000", Arabic's
 * "22،338"); other punctuation splits ("covid-19" → "covid", "19").
 */
const spacedWord = new RegExp(
  `${wordStart}${wordCharacter}*(?:(?:(?<=\\p{L})[:.'\\u00B7\\u0387\\u05F4\\u2018\\u2019\\u2027](?=\\p{L})|` +
    `(?<=\\p{N})[.,;'\\u060C\\u060D\\u066C\\u2018\\u2019\\u2044](?=\\p{N}))${wordCharacter}+)*`,
  'gu',
);

/**
 * Words as the text spells them (NFKC-normalised, not yet folded), in order, by Unicode word
 * boundaries: Intl.Segmenter (ICU, with its dictionaries for Chinese, Japanese, Thai, Khmer…) for a
 * text holding a script written without spaces; for any other text, the same boundaries by one
 * regular expression, because Intl.Segmenter costs about 1 ms per 1,400-character chunk, five times
 * the whole former analysis (bench/analyzer.ts), and finds the same words there (analyzer.test.ts).
 */
export function tokenizeWords(text: string, language: string | null = null): string[] {
  const normalized = text.normalize('NFKC');
  return unspacedScript.test(normalized) ? segmentWords(normalized, language) : spacedWords(normalized);
}

/** Intl.Segmenter's word-like segments (letters, numbers, ideographs; never punctuation). */
export function segmentWords(normalized: string, language: string | null): string[] {
  const tokens: string[] = [];
  for (const segment of languageRules(language).segmenter.segment(normalized)) {
    if (segment.isWordLike && segment.segment.length <= maxTokenLength) tokens.push(segment.segment);
  }
  return tokens;
}

function spacedWords(normalized: string): string[] {
  const tokens: string[] = [];
  for (const match of normalized.matchAll(spacedWord)) {
    if (match[0].length <= maxTokenLength) tokens.push(match[0]);
  }
  return tokens;
}

/**
 * The analysis lexical retrieval indexes and queries with, for a text in `language` (ISO 639-1, or
 * null when unknown): word segmentation, case folding, the language's stop words, its Snowball
 * stemmer. Documents and queries go through the same function.
 */
export function analyze(text: string, language: string | null, options: AnalysisOptions = {}): string[] {
  const { stopWords, stem } = languageRules(language);
  const terms: string[] = [];
  for (const word of tokenizeWords(text, language)) {
    for (const part of letterDigit.test(word) ? word.split(letterDigitBoundary) : [word]) {
      const folded = part.toLowerCase();
      if (!stopWords.has(folded)) terms.push(stem(folded));
    }
  }
  if (options.bigrams !== false && ideographic.test(text)) {
    // Stop words are not taken out of bigrams: on XQuAD zh that cost 0.001 nDCG@10.
    terms.push(...ideographicBigrams(text.normalize('NFKC')));
  }
  return terms;
}

/**
 * A letter next to a digit inside one word. UAX #29 keeps "1970s", "covid19" or Arabic's "و2010"
 * ("and 2010", the conjunction written onto the number) whole; split there, as Lucene's word
 * delimiter filter does, they meet "1970", "covid 19" and "2010" (SciFact nDCG@10 0.6833 → 0.6909).
 */
const letterDigit = /\p{L}\p{M}*\p{N}|\p{N}\p{L}/u;
const letterDigitBoundary = /(?<=\p{L}\p{M}*)(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

export interface AnalysisOptions {
  /** Han and Kana bigrams beside the words (default true): retrieval's terms; false for words alone. */
  bigrams?: boolean;
}

/** Han and Kana: scripts written without spaces whose characters are syllables or morphemes. */
const ideographic = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const ideographicRun = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{2,}/gu;

/**
 * Every two adjacent characters of each run of Han or Kana, beside the dictionary's words (as
 * Lucene's CJK bigrams): a query and a passage whose dictionary cut differs ("北京大学" against
 * "北京" "大学", or a name the dictionary lacks) still share terms. Chosen by script, whatever the
 * text's language; a bigram that is also a word counts as both, which weighs it up.
 */
export function ideographicBigrams(normalized: string): string[] {
  const bigrams: string[] = [];
  for (const [run] of normalized.matchAll(ideographicRun)) {
    const characters = [...run];
    for (let i = 0; i + 1 < characters.length; i++) bigrams.push(characters[i]! + characters[i + 1]!);
  }
  return bigrams;
}

/** A chunk's analysis: its language as detected, its terms' frequencies and its BM25 length. */
export interface ChunkAnalysis {
  language: string | null;
  frequencies: Map<string, number>;
  length: number;
}

/** Counts a chunk's analysed terms in its language (see LanguageDetector.detectChunks). */
export function analyzeChunk(text: string, language: string | null): ChunkAnalysis {
  const terms = analyze(text, language);
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { language, frequencies, length: terms.length };
}

/**
 * A query's terms, each counted once (the map's counts are all 1). A query whose language the
 * detector tells, and which the corpus holds, is analysed in it; otherwise (a few words, a name, a
 * language no chunk is in) under the detected language if any and each of the corpus's languages,
 * the terms ORed. A question repeats a word for its grammar ("the game … won the game"), not to ask
 * for it twice: BM25's query-term saturation at k3 = 0, as a set of terms (XQuAD ar alone nDCG@10
 * 0.9454 → 0.9464, de +0.0003; zh −0.0013 and SciFact −0.002, both still above their references).
 */
export function analyzeQuery(
  query: string,
  detector: LanguageDetector,
  corpusLanguages: readonly (string | null)[],
  options: AnalysisOptions = {},
): Map<string, number> {
  const detected = detector.detect(query);
  let languages: (string | null)[] =
    detected !== null && corpusLanguages.includes(detected)
      ? [detected]
      : [...new Set([...(detected === null ? [] : [detected]), ...corpusLanguages])];
  // An empty corpus: nothing to match, but the terms are still what the caller sees (e.g. "no terms").
  if (languages.length === 0) languages = [null];
  const counts = new Map<string, number>();
  for (const language of languages) for (const term of analyze(query, language, options)) counts.set(term, 1);
  return counts;
}

/** English stop words (Snowball's list as @orama/stopwords ships it), for English-only heuristics. */
export const englishStopWords: ReadonlySet<string> = languageRules('en').stopWords;

/** The analysis of English text: for callers that know their text is English (sentence ranking). */
export function analyzeEnglish(text: string): string[] {
  return analyze(text, 'en');
}

/** Term frequencies of an English text, plus its length in analysed terms. */
export function termFrequencies(text: string): { frequencies: Map<string, number>; length: number } {
  const terms = analyzeEnglish(text);
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { frequencies, length: terms.length };
}
