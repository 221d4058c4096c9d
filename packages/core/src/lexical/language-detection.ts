import { eld } from 'eld/extrasmall';

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
 * in 960 and 0.8 % fewer questions told.
 */
export class LanguageDetector {
  readonly #eld = eld.newInstance();
  /** The languages detection may answer, or null for any eld knows. */
  readonly allowed: readonly string[] | null;

  constructor(allowed?: readonly string[] | null) {
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
   * table row) is analysed like the text around it. Null where neither is told.
   */
  detectChunks(texts: readonly string[]): (string | null)[] {
    const languages = texts.map((text) => this.detect(text));
    const weight = new Map<string, number>();
    languages.forEach((language, i) => {
      if (language !== null) weight.set(language, (weight.get(language) ?? 0) + (texts[i] as string).length);
    });
    const ranked = [...weight.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const documentLanguage = ranked[0]?.[0] ?? null;
    return languages.map((language) => language ?? documentLanguage);
  }
}
