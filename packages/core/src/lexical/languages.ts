import { createRequire } from 'node:module';
import type { Stemmer } from 'snowball-stemmers';
import { stopWordLists } from './stop-words.js';

const require = createRequire(import.meta.url);
// A CommonJS bundle of every Snowball algorithm (its ESM entry is missing); loaded once per process.
const snowball = require('snowball-stemmers') as typeof import('snowball-stemmers');

/**
 * ISO 639-1 code → the name of its Snowball algorithm in snowball-stemmers. English is Snowball's
 * "english" (Porter2), which replaced the hand-written Porter stemmer: SciFact nDCG@10 did not drop
 * (docs/documents-and-sources.md, Languages). A language not listed here is analysed without stemming.
 */
const snowballAlgorithms: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  cs: 'czech',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  hu: 'hungarian',
  it: 'italian',
  ga: 'irish',
  no: 'norwegian',
  nb: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  es: 'spanish',
  sl: 'slovene',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
};

/** What the analyzer applies for one language; built on first use and kept. */
export interface LanguageRules {
  segmenter: Intl.Segmenter;
  stopWords: ReadonlySet<string>;
  stem: (word: string) => string;
}

const rules = new Map<string, LanguageRules>();
const identity = (word: string): string => word;

/**
 * The rules of a language (an ISO 639-1 code), or of none (`null`: no stop words, no stemming, the
 * root locale's word boundaries). A code no table knows still gets Intl.Segmenter's boundaries.
 */
export function languageRules(language: string | null): LanguageRules {
  const key = language ?? '';
  let found = rules.get(key);
  if (!found) {
    const algorithm = language ? snowballAlgorithms[language] : undefined;
    const stemmer: Stemmer | null = algorithm ? snowball.newStemmer(algorithm) : null;
    found = {
      segmenter: new Intl.Segmenter(segmenterLocale(language), { granularity: 'word' }),
      stopWords: (language ? stopWordLists[language] : undefined) ?? new Set(),
      stem: stemmer ? cachedStem(stemmer) : identity,
    };
    rules.set(key, found);
  }
  return found;
}

/** Stems kept per language before the cache starts again (words follow Zipf: most repeat). */
const maxCachedStems = 50_000;

/** Passes after the first at most (on XQuAD's and SciFact's words: four in Arabic, nearly all none). */
const maxExtraPasses = 4;

/**
 * A word's stem, stemmed again until it no longer changes: a Snowball pass takes off one layer of
 * suffixes, and a stem that still ends in one (Arabic "مشطيات" → "مشطيا" → "مشطي" → "مشط") then meets
 * the forms of the same word that one pass took all the way. The stem of a stem is itself, so a query
 * written in stems finds its words (XQuAD ar nDCG@10 +0.0005 alone, +0.004 in the four-language index).
 */
function stemToFixedPoint(stemmer: Stemmer, word: string): string {
  let stem = stemmer.stem(word);
  for (let pass = 0; pass < maxExtraPasses; pass++) {
    const again = stemmer.stem(stem);
    if (again === stem) break;
    stem = again;
  }
  return stem;
}

/** snowball-stemmers allocates per call (a few µs a word); a text repeats most of its words. */
function cachedStem(stemmer: Stemmer): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    let stem = cache.get(word);
    if (stem === undefined) {
      stem = stemToFixedPoint(stemmer, word);
      if (cache.size >= maxCachedStems) cache.clear();
      cache.set(word, stem);
    }
    return stem;
  };
}

/** The language's locale if Intl knows it, else the root locale (its word rules serve every script). */
function segmenterLocale(language: string | null): string {
  return language && Intl.Segmenter.supportedLocalesOf([language]).length > 0 ? language : 'und';
}

/** Languages with a stemmer or a stop-word list (the rest are segmented and case-folded only). */
export function languagesWithRules(): string[] {
  return [...new Set([...Object.keys(snowballAlgorithms), ...Object.keys(stopWordLists)])].sort();
}
