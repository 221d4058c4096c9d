import { readFileSync } from 'node:fs';
import { DocqaError } from '@docqa/plugin-api/errors';
import type { eld as EldInstance } from 'eld/extrasmall';

/**
 * eld's database as its loader takes it: ngram -> { language index: score }. Values equal in text are
 * one shared object: 49,553 ngrams have 12,588 distinct score sets.
 */
interface NgramsData {
  type: string;
  languages: Record<number, string>;
  isSubset: boolean;
  ngrams: Record<string, Record<number, number>>;
}

type CreateEld = () => { instance: typeof EldInstance; loadData(data: NgramsData): string };

/**
 * `eld/extrasmall` holds its database as one JavaScript object literal, and V8's parse and compile of it
 * cost the process 70-80 MB resident (30 MB of heap) for good. Its loader, createEld, takes the same
 * data built here from that file's text: 26 MB resident, 12 MB of heap. createEld is not in eld's
 * exports map, hence the file URL; eld is pinned to an exact version and language-detection.test.ts
 * checks the data against eld's own.
 */
const eldEntry = import.meta.resolve('eld/extrasmall');
const { createEld } = (await import(new URL('../languageDetector.js', eldEntry).href)) as { createEld: CreateEld };

/** One ngram entry of the literal: a quoted ('\'' escaped) or bare key, then its {index:score,...}. */
const ngramEntry = /(?:'((?:[^'\\]|\\.)*)'|([A-Za-z_$][\w$]*)):\{([\d:,]+)\}/g;

let database: NgramsData | undefined;

/** eld's extra-small database, read once per process, when the first detector is made. */
export function eldDatabase(): NgramsData {
  return (database ??= readDatabase(readFileSync(new URL('../ngrams/extrasmall.js', eldEntry), 'utf8')));
}

/** An eld instance of its own (its own language subset) on the one shared database. */
export function newEld(): typeof EldInstance {
  const { instance, loadData } = createEld();
  loadData(eldDatabase());
  return instance;
}

function readDatabase(source: string): NgramsData {
  const type = /\btype:'(\w+)'/.exec(source)?.[1];
  const ngramsAt = source.indexOf('ngrams:{');
  const languages: Record<number, string> = {};
  for (const [, index, code] of source.slice(source.indexOf('languages:{'), ngramsAt).matchAll(/(\d+):'(\w+)'/g)) {
    languages[Number(index)] = code as string;
  }
  const body = source.slice(ngramsAt + 'ngrams:{'.length);
  const ngrams: Record<string, Record<number, number>> = {};
  const shared = new Map<string, Record<number, number>>();
  let expectedAt = 0;
  for (const match of body.matchAll(ngramEntry)) {
    // Entries follow each other, comma-separated: a gap means a format this reader does not know.
    if (match.index !== expectedAt) break;
    expectedAt = match.index + match[0].length + 1;
    const [, quoted, bare, scoreText = ''] = match;
    let scores = shared.get(scoreText);
    if (!scores) {
      scores = {};
      for (const pair of scoreText.split(',')) {
        const [index, score] = pair.split(':');
        scores[Number(index)] = Number(score);
      }
      shared.set(scoreText, scores);
    }
    ngrams[quoted === undefined ? (bare as string) : quoted.replace(/\\(.)/g, '$1')] = scores;
  }
  if (!type || ngramsAt < 0 || Object.keys(languages).length === 0 || !body.startsWith('}}', expectedAt - 1)) {
    throw new DocqaError('internal', "eld's language database is not in the format this version reads");
  }
  return { type, languages, isSubset: false, ngrams };
}

/**
 * Detection reads at most this much of a text: eld's cost grows with the text, and a chunk's first
 * few hundred characters tell its language as well as the whole (XQuAD paragraphs: the same accuracy,
 * see docs/documents-and-sources.md, Languages).
 */
const sampleCharacters = 400;
/** From this length on, a text is long enough for eld's best guess. */
const longText = 200;
/** The least relative lead of the best language's score over the next one's. */
const minimumMargin = 0.05;

/**
 * Language detection with eld (Nito-ELD, "extra small" database: 60 languages, ISO 639-1 codes), chosen
 * against tinyld and franc-min on XQuAD's 960 paragraphs and 4,760 questions in en/de/zh/ar
 * (docs/documents-and-sources.md, Languages): the most accurate and the fastest. Its databases are
 * JavaScript object literals, which cost the process far more than their size: "small" held about
 * 110 MB of resident memory for as long as the server ran, "extra small" 48 MB, for one paragraph
 * in 960 and 0.8 % fewer questions told. Read by eldDatabase() instead of imported, much less (above).
 */
export class LanguageDetector {
  readonly #eld: typeof EldInstance;
  /** The languages detection may answer, or null for any eld knows. */
  readonly allowed: readonly string[] | null;

  constructor(allowed?: readonly string[] | null) {
    this.#eld = newEld();
    this.allowed = allowed && allowed.length > 0 ? [...allowed] : null;
    if (this.allowed) this.#eld.setLanguageSubset([...this.allowed]);
  }

  /** The text's language, or null when the detector is not confident (too short, mixed, unknown). */
  detect(text: string): string | null {
    const result = this.#eld.detect(text.length > sampleCharacters ? text.slice(0, sampleCharacters) : text);
    if (!result.language) return null;
    // A paragraph's best guess is right even when eld doubts it (Arabic next to Persian and Urdu):
    // with its doubts, 7 of XQuAD's 960 paragraphs went untold; without them, none, all right.
    if (text.length >= longText) return result.language;
    if (!result.isReliable()) return null;
    // eld calls most short texts reliable; a near tie with the runner-up is a guess. On XQuAD's
    // questions this margin keeps 96 % of them told, and of those 99.96 % right (0.998 without it).
    const [best = 0, second = 0] = Object.values(result.getScores()).sort((a, b) => b - a);
    return best > 0 && (best - second) / best >= minimumMargin ? result.language : null;
  }

  /**
   * The language of each of a document's chunks: its own where detection tells it, else the
   * document's — the language told for most of its characters — so a short chunk (a heading, a
   * table row) is analysed like the text around it. Null where neither is told. `known` holds a
   * language already told for a text (stored with its chunk at indexing), which is then not detected
   * again; null or absent there means detect.
   */
  detectChunks(texts: readonly string[], known: readonly (string | null | undefined)[] = []): (string | null)[] {
    const languages = texts.map((text, i) => known[i] ?? this.detect(text));
    const weight = new Map<string, number>();
    languages.forEach((language, i) => {
      if (language !== null) weight.set(language, (weight.get(language) ?? 0) + (texts[i] as string).length);
    });
    const ranked = [...weight.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const documentLanguage = ranked[0]?.[0] ?? null;
    return languages.map((language) => language ?? documentLanguage);
  }
}
