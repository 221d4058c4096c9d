import { bm25 } from './bm25-ranking.js';
import { bitCount, windowSpan, windowWords, type OpenWindow } from './term-windows.js';

/** A query term ranked from its bitmap windows: its weight (query count × idf), its windows by number. */
export interface WindowedTerm {
  weight: number;
  windows: ReadonlyMap<number, OpenWindow>;
}

export interface NumberedHit {
  /** The chunk's number: window · windowSpan + offset. */
  chunk: number;
  score: number;
}

/** Subsets of terms are enumerated per window: 2^terms of them, so queries with more go to SQL. */
export const maxWindowedTerms = 8;

/** The best `limit` chunks, score descending then chunk number ascending. */
class BestChunks {
  readonly chunks: number[] = [];
  readonly scores: number[] = [];
  constructor(private readonly limit: number) {}

  /** A score a chunk must reach to enter (ties by chunk number may still enter). */
  get bar(): number {
    return this.scores.length < this.limit ? -Infinity : (this.scores[this.limit - 1] as number);
  }

  add(chunk: number, score: number): void {
    let at = this.scores.length;
    while (
      at > 0 &&
      ((this.scores[at - 1] as number) < score ||
        (this.scores[at - 1] === score && (this.chunks[at - 1] as number) > chunk))
    )
      at--;
    if (at >= this.limit) return;
    this.scores.splice(at, 0, score);
    this.chunks.splice(at, 0, chunk);
    if (this.scores.length > this.limit) {
      this.scores.pop();
      this.chunks.pop();
    }
  }
}

/** A query term ranked from its postings (a rare term, read from SQL), chunks by number. */
export interface SparseTerm {
  weight: number;
  postings: readonly { chunk: number; tf: number; length: number }[];
}

/**
 * The exact BM25 top `limit` over the terms' windows and the sparse terms' postings (scores as
 * bm25-ranking.ts computes them, up to the order of a sum: windowed terms', then sparse terms').
 * Chunks with a sparse term are scored first, each in full. Every other chunk has windowed terms
 * only: the sets of them a chunk can have are tried best bound first (all the terms first, whose
 * scores set a bar), and a set is enumerated in a window (bitmap AND of its terms, AND NOT of the
 * others and of the chunks already scored) only if the window's bound for it reaches the bar,
 * which only rises.
 */
export function rankWindows(
  terms: readonly WindowedTerm[],
  averageLength: number,
  limit: number,
  sparse: readonly SparseTerm[] = [],
): NumberedHit[] {
  if (terms.length + sparse.length === 0 || limit <= 0) return [];
  if (terms.length > maxWindowedTerms) throw new RangeError(`at most ${maxWindowedTerms} windowed terms`);
  const saturation = bm25.k1 * (1 - bm25.b);
  const perLength = averageLength > 0 ? (bm25.k1 * bm25.b) / averageLength : 0;
  const scale = terms.map((term) => term.weight * (bm25.k1 + 1));
  const part = (weight: number, tf: number, length: number) => (weight * tf) / (tf + saturation + perLength * length);
  const best = new BestChunks(limit);
  const scored = scoreSparseChunks();
  const windowNumbers = [...new Set(terms.flatMap((term) => [...term.windows.keys()]))].sort((a, b) => a - b);
  // Each term's bound per window, with the margin scoreBound() leaves for rounding.
  const bounds = windowNumbers.map((number) =>
    terms.map((term, t) => {
      const window = term.windows.get(number);
      if (!window) return -Infinity;
      const top = Math.max(...window.boundPairs.map(([tf, length]) => part(1, tf, length)));
      return (scale[t] as number) * top * (1 + 1e-9) + 1e-12;
    }),
  );
  const boundOf = (termBounds: readonly number[], set: number) =>
    termBounds.reduce((sum, bound, t) => (set & (1 << t) ? sum + bound : sum), 0);
  const everyTerm = (1 << terms.length) - 1;
  const sets = Array.from({ length: everyTerm }, (_, i) => everyTerm - i);
  const setBound = (set: number) => Math.max(...bounds.map((termBounds) => boundOf(termBounds, set)));
  const setBounds = new Map(sets.map((set) => [set, setBound(set)]));
  sets.sort((a, b) => (setBounds.get(b) as number) - (setBounds.get(a) as number));
  for (const set of sets) {
    if ((setBounds.get(set) as number) < best.bar) continue;
    windowNumbers.forEach((number, w) => {
      if (boundOf(bounds[w] as number[], set) < best.bar) return;
      const windows = terms.map((term) => term.windows.get(number));
      scoreSet(set, windows, scored.get(number), (offset, score) => best.add(number * windowSpan + offset, score));
    });
  }
  return best.chunks.map((chunk, i) => ({ chunk, score: best.scores[i] as number }));

  /** A windowed term's part of a chunk's score (0 without the term). */
  function windowedPart(t: number, window: OpenWindow | undefined, offset: number): number {
    if (!window) return 0;
    const word = offset >>> 5;
    const bit = 1 << (offset & 31);
    if (!((window.bits[word] as number) & bit)) return 0;
    const posting = (window.rankBefore[word] as number) + bitCount((window.bits[word] as number) & (bit - 1));
    return part(scale[t] as number, window.tf[posting] as number, window.lengths[posting] as number);
  }

  /** Every chunk with a sparse term, in full; answers them as a bitmap per window, to leave out after. */
  function scoreSparseChunks(): Map<number, Uint32Array> {
    const sparseParts = new Map<number, number[]>();
    sparse.forEach((term, s) => {
      for (const { chunk, tf, length } of term.postings) {
        const parts = sparseParts.get(chunk) ?? new Array<number>(sparse.length).fill(0);
        parts[s] = part(term.weight * (bm25.k1 + 1), tf, length);
        sparseParts.set(chunk, parts);
      }
    });
    const done = new Map<number, Uint32Array>();
    for (const [chunk, parts] of sparseParts) {
      const number = Math.floor(chunk / windowSpan);
      const offset = chunk % windowSpan;
      let score = 0;
      terms.forEach((term, t) => (score += windowedPart(t, term.windows.get(number), offset)));
      for (const value of parts) score += value;
      best.add(chunk, score);
      const bits = done.get(number) ?? new Uint32Array(windowWords);
      bits[offset >>> 5] = ((bits[offset >>> 5] as number) | (1 << (offset & 31))) >>> 0;
      done.set(number, bits);
    }
    return done;
  }

  /** Scores every chunk of a window that has exactly the terms of `set`, but those already scored. */
  function scoreSet(
    set: number,
    windows: readonly (OpenWindow | undefined)[],
    done: Uint32Array | undefined,
    found: (offset: number, score: number) => void,
  ) {
    for (let t = 0; t < windows.length; t++) if (set & (1 << t) && !windows[t]) return;
    for (let word = 0; word < windowWords; word++) {
      let bits = done ? ~(done[word] as number) : -1;
      for (let t = 0; t < windows.length; t++) {
        const termBits = windows[t]?.bits[word] ?? 0;
        bits &= set & (1 << t) ? termBits : ~termBits;
      }
      while (bits !== 0) {
        const bit = 31 - Math.clz32(bits & -bits);
        bits &= bits - 1;
        let score = 0;
        for (let t = 0; t < windows.length; t++) {
          if (!(set & (1 << t))) continue;
          const window = windows[t] as OpenWindow;
          const posting =
            (window.rankBefore[word] as number) + bitCount((window.bits[word] as number) & ((1 << bit) - 1));
          score += part(scale[t] as number, window.tf[posting] as number, window.lengths[posting] as number);
        }
        found(word * 32 + bit, score);
      }
    }
  }
}
