import { porterStem } from './porter-stemmer.js';

/**
 * Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET). Kept this short on purpose:
 * BM25's idf already discounts common words, and a long list would drop meaningful ones ("no", "not"
 * are here only because Lucene has them and the reference figures were measured with them).
 */
export const englishStopWords: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of',
  'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
]);

/** Lucene's StandardTokenizer cuts tokens at 255 characters; longer runs are noise (base64, hashes). */
const maxTokenLength = 255;

// Han ideographs and Hiragana are one token per character, as in UAX #29 (no spaces between words).
const ideograph = '[\\p{Script=Han}\\p{Script=Hiragana}]';
const nonIdeographWordChar = '[^\\P{L}\\p{Script=Han}\\p{Script=Hiragana}]|[\\p{M}\\p{N}\\p{Pc}]';
/**
 * A token: an ideograph, or a run of word characters that may continue across an apostrophe or a
 * period between letters ("don't", "u.s.a") or a period or comma between digits ("3.14", "1,000"),
 * which is what UAX #29 word boundaries do. Hyphens, slashes and other punctuation split:
 * "covid-19" → "covid", "19".
 */
const tokenPattern = new RegExp(
  `${ideograph}|(?:${nonIdeographWordChar})+(?:(?:(?<=\\p{L})['\\u2019.](?=\\p{L})|(?<=\\p{N})[.,](?=\\p{N}))(?:${nonIdeographWordChar})+)*`,
  'gu',
);

/** Words as the text spells them (NFKC-normalised, not yet lower-cased), in order. */
export function tokenizeWords(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.normalize('NFKC').matchAll(tokenPattern)) {
    const token = match[0];
    if (token.length <= maxTokenLength) tokens.push(token);
  }
  return tokens;
}

/** "patient's" → "patient", as Lucene's EnglishPossessiveFilter (ASCII and typographic apostrophes). */
function removePossessive(token: string): string {
  return /['\u2019][sS]$/.test(token) ? token.slice(0, -2) : token;
}

/**
 * The English analyzer lexical retrieval indexes and queries with, after Lucene's EnglishAnalyzer:
 * tokenize, drop possessive 's, lower-case, drop stop words, Porter-stem. Documents and queries must
 * go through the same function, so any change here needs a re-index of the lexical postings.
 */
export function analyzeEnglish(text: string): string[] {
  const terms: string[] = [];
  for (const word of tokenizeWords(text)) {
    const lower = removePossessive(word).toLowerCase();
    if (lower.length === 0 || englishStopWords.has(lower)) continue;
    terms.push(porterStem(lower));
  }
  return terms;
}

/** Term frequencies of a text, plus its length in analysed terms (BM25's document length). */
export function termFrequencies(text: string): { frequencies: Map<string, number>; length: number } {
  const terms = analyzeEnglish(text);
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { frequencies, length: terms.length };
}
