/**
 * The synthetic corpus of bench:retrieval, generated afresh each run from a fixed seed (so two runs
 * measure the same data, and nothing is cached between them):
 * - texts whose words follow Zipf's law over a vocabulary whose most frequent words are the
 *   analyzer's stop words, then made-up words, so BM25 postings have natural lengths (a few
 *   words in most chunks, a long tail in few);
 * - unit vectors in clusters that are locally low-dimensional, as text embeddings are: nearest
 *   neighbours are well separated, so recall@10 means something (on isotropic random vectors all
 *   neighbours are nearly equidistant and recall is noise).
 */
import { englishStopWords } from '@docqa/core';

/** mulberry32: small, fast and good enough for test data; the same seed gives the same corpus. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal by Box–Muller. */
export function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

// Stop words first, in roughly their English frequency order: in real text they are about a
// quarter of all words, which is what Zipf's law over this vocabulary gives them here too.
// No 'a': Snowball's English list as @orama/stopwords ships it does not hold it.
const stopWordsByFrequency = [
  'the',
  'of',
  'and',
  'to',
  'in',
  'is',
  'it',
  'that',
  'for',
  'was',
  'on',
  'are',
  'as',
  'with',
  'be',
  'at',
  'by',
  'this',
  'not',
  'or',
  'but',
  'they',
  'there',
  'their',
  'if',
  'no',
  'an',
  'will',
  'then',
  'these',
  'into',
  'such',
];

export interface Vocabulary {
  words: string[];
  /** Cumulative Zipf probabilities by rank, for sampling by binary search. */
  cumulative: Float64Array;
  /** Rank of the first word that is not a stop word. */
  firstContentRank: number;
}

/** Zipf's law with exponent 1 (English is close to it) over the stop words and `size` made-up words. */
export function zipfVocabulary(size: number, random: () => number): Vocabulary {
  if (stopWordsByFrequency.some((word) => !englishStopWords.has(word)))
    throw new Error('the stop word list drifted from the analyzer');
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aiou'; // no e or y: the Porter stemmer leaves such endings alone, so words stay distinct
  const made = new Set<string>();
  while (made.size < size) {
    let word = '';
    const syllables = 2 + Math.floor(random() * 3);
    for (let s = 0; s < syllables; s++)
      word += consonants[Math.floor(random() * consonants.length)]! + vowels[Math.floor(random() * vowels.length)]!;
    made.add(word);
  }
  const words = [...stopWordsByFrequency, ...made];
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let rank = 0; rank < words.length; rank++) cumulative[rank] = total += 1 / (rank + 1);
  for (let rank = 0; rank < words.length; rank++) cumulative[rank]! /= total;
  return { words, cumulative, firstContentRank: stopWordsByFrequency.length };
}

/** A rank drawn from the vocabulary's Zipf distribution, at least `fromRank`. */
export function sampleRank(vocabulary: Vocabulary, random: () => number, fromRank = 0): number {
  const floor = fromRank > 0 ? vocabulary.cumulative[fromRank - 1]! : 0;
  const target = floor + random() * (1 - floor);
  let low = fromRank;
  let high = vocabulary.cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (vocabulary.cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Content words a document keeps coming back to, and how often a content word is one of them. */
export const topicWords = 20;
const topicShare = 0.45;

/** A document's topic: content words drawn by Zipf's law, repeated through its chunks. */
export function documentTopic(vocabulary: Vocabulary, random: () => number): string[] {
  return Array.from(
    { length: topicWords },
    () => vocabulary.words[sampleRank(vocabulary, random, vocabulary.firstContentRank)]!,
  );
}

/**
 * A chunk of prose-shaped text: sentences of 8–20 Zipf words, `words` in all. Real text repeats
 * its subject's words (a 190-word passage has some 80 distinct terms, not 115), so nearly half of
 * the content words come from the document's topic: term frequencies above 1, postings per chunk
 * as in real text.
 */
export function chunkText(
  vocabulary: Vocabulary,
  random: () => number,
  words: number,
  topic: readonly string[],
): string {
  const parts: string[] = [];
  let sentenceLeft = 0;
  for (let i = 0; i < words; i++) {
    const rank = sampleRank(vocabulary, random);
    let word =
      rank >= vocabulary.firstContentRank && random() < topicShare
        ? topic[Math.floor(random() * topic.length)]!
        : vocabulary.words[rank]!;
    if (sentenceLeft === 0) {
      sentenceLeft = 8 + Math.floor(random() * 13);
      word = word[0]!.toUpperCase() + word.slice(1);
    }
    sentenceLeft--;
    parts.push(sentenceLeft === 0 || i === words - 1 ? `${word}.` : word);
  }
  return parts.join(' ');
}

/**
 * A search query as people type them: 2–5 words, each drawn by Zipf's law from the content
 * words (so a frequent word, with long postings, turns up in a query as often as in the text).
 */
export function lexicalQuery(vocabulary: Vocabulary, random: () => number): string {
  const count = 2 + Math.floor(random() * 4);
  return Array.from(
    { length: count },
    () => vocabulary.words[sampleRank(vocabulary, random, vocabulary.firstContentRank)]!,
  ).join(' ');
}

/** The content words a frequent-word query draws from: the most frequent ones, each in a large share of the chunks. */
export const frequentWords = 20;

/**
 * A query of 2–4 distinct words of the most frequent content words, drawn uniformly from them: the worst
 * case for BM25 over postings (every term's postings are long, none is rare enough to rank by),
 * which Zipf-drawn queries meet only now and then.
 */
export function frequentWordQuery(vocabulary: Vocabulary, random: () => number): string {
  const count = 2 + Math.floor(random() * 3);
  const words = new Set<string>();
  while (words.size < count)
    words.add(vocabulary.words[vocabulary.firstContentRank + Math.floor(random() * frequentWords)]!);
  return [...words].join(' ');
}

/** A query of stop words only: nothing matches lexically, so search answers in dense mode alone. */
export function stopWordQuery(random: () => number): string {
  const count = 2 + Math.floor(random() * 3);
  return Array.from(
    { length: count },
    () => stopWordsByFrequency[Math.floor(random() * stopWordsByFrequency.length)]!,
  ).join(' ');
}

export interface VectorSpaceOptions {
  dimensions: number;
  clusters: number;
  /** Directions each cluster spreads along: its local (intrinsic) dimension. */
  localDimensions: number;
  /** Spread along those directions, and the isotropic noise on top, relative to the unit centre. */
  spread: number;
  noise: number;
}

/** Cluster centres (unit vectors) with, for each, its own random local directions. */
export function clusteredSpace(options: VectorSpaceOptions, random: () => number) {
  const { dimensions, clusters, localDimensions } = options;
  const unit = () => normalize(Float64Array.from({ length: dimensions }, () => gaussian(random)));
  const centres = Array.from({ length: clusters }, unit);
  // Random directions in 384 dimensions are nearly orthogonal already; no need to orthogonalise.
  const directions = Array.from({ length: clusters }, () => Array.from({ length: localDimensions }, unit));
  /** A point of cluster `cluster`, as a unit vector rounded to 5 decimals (short SQL literals; float4 keeps ~7 digits anyway). */
  const point = (cluster: number): number[] => {
    const v = Float64Array.from(centres[cluster]!);
    for (const direction of directions[cluster]!) {
      const a = gaussian(random) * options.spread;
      for (let d = 0; d < dimensions; d++) v[d]! += a * direction[d]!;
    }
    const noise = options.noise / Math.sqrt(dimensions);
    for (let d = 0; d < dimensions; d++) v[d]! += gaussian(random) * noise;
    return Array.from(normalize(v), (x) => Math.round(x * 1e5) / 1e5);
  };
  return { point };
}

function normalize(v: Float64Array): Float64Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
