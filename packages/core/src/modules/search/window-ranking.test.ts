import { expect } from 'chai';
import { bm25 } from './bm25-ranking.js';
import { encodeWindow, openWindow, windowSpan, type OpenWindow, type WindowPosting } from './term-windows.js';
import { rankWindows, type NumberedHit } from './window-ranking.js';

/** A deterministic generator, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
}

interface Corpus {
  lengths: Uint16Array;
  /** Per term: chunk number → tf. */
  postings: Map<number, number>[];
}

/** Chunks of ~190 ± 80 words; term t in a `density[t]` share of them, tf 1–6 mostly 1 (or up to 40). */
function corpus(seed: number, chunks: number, density: readonly number[], tfTop = 6): Corpus {
  const random = generator(seed);
  const lengths = Uint16Array.from({ length: chunks }, () => Math.max(5, Math.round(190 + 80 * (random() * 2 - 1))));
  const tf = () => Math.min(tfTop, 1 + Math.floor(-Math.log(1 - random()) * 0.9));
  const postings = density.map((share) => {
    const term = new Map<number, number>();
    for (let chunk = 0; chunk < chunks; chunk++) if (random() < share) term.set(chunk, tf());
    return term;
  });
  return { lengths, postings };
}

/** Each term's postings cut into windows, encoded and opened as search would read them. */
function windowsOf(data: Corpus, term: number): Map<number, OpenWindow> {
  const byWindow = new Map<number, WindowPosting[]>();
  for (const [chunk, tf] of [...(data.postings[term] as Map<number, number>)].sort((a, b) => a[0] - b[0])) {
    const window = Math.floor(chunk / windowSpan);
    const list = byWindow.get(window) ?? [];
    list.push({ offset: chunk % windowSpan, tf, length: data.lengths[chunk] as number });
    byWindow.set(window, list);
  }
  return new Map([...byWindow].map(([window, postings]) => [window, openWindow(encodeWindow(postings))]));
}

/** Every posting scored as bm25-ranking.ts's SQL does, terms summed in query order. */
function scoreEverything(
  data: Corpus,
  weights: readonly number[],
  averageLength: number,
  limit: number,
): NumberedHit[] {
  const scores = new Map<number, number>();
  const saturation = bm25.k1 * (1 - bm25.b);
  const perLength = (bm25.k1 * bm25.b) / averageLength;
  data.postings.forEach((term, t) => {
    for (const [chunk, tf] of term) {
      const score =
        ((weights[t] as number) * (bm25.k1 + 1) * tf) / (tf + saturation + perLength * (data.lengths[chunk] as number));
      scores.set(chunk, (scores.get(chunk) ?? 0) + score);
    }
  });
  return [...scores]
    .map(([chunk, score]) => ({ chunk, score }))
    .sort((a, b) => b.score - a.score || a.chunk - b.chunk)
    .slice(0, limit);
}

/** Terms from `sparseFrom` on are given as postings (rare terms, as SQL reads them), the others as windows. */
function rank(
  data: Corpus,
  weights: readonly number[],
  averageLength: number,
  limit: number,
  sparseFrom = weights.length,
): NumberedHit[] {
  const terms = weights.slice(0, sparseFrom).map((weight, t) => ({ weight, windows: windowsOf(data, t) }));
  const sparse = weights.slice(sparseFrom).map((weight, s) => ({
    weight,
    postings: [...(data.postings[sparseFrom + s] as Map<number, number>)].map(([chunk, tf]) => ({
      chunk,
      tf,
      length: data.lengths[chunk] as number,
    })),
  }));
  return rankWindows(terms, averageLength, limit, sparse);
}

describe('bitmap windows of frequent terms', () => {
  it('reads back each posting, and bounds every posting saturation by its (tf, shortest length) pairs', () => {
    const postings = [
      { offset: 0, tf: 1, length: 40 },
      { offset: 31, tf: 3, length: 300 },
      { offset: 32, tf: 3, length: 120 },
      { offset: 65_535, tf: 2, length: 90 },
    ];
    const window = openWindow(encodeWindow(postings));
    expect([...window.tf]).to.deep.equal([1, 3, 3, 2]);
    expect([...window.lengths]).to.deep.equal([40, 300, 120, 90]);
    expect(window.bits[0]).to.equal((1 | (1 << 31)) >>> 0);
    expect(window.bits[1]).to.equal(1);
    expect(window.bits[2047]).to.equal((1 << 31) >>> 0);
    expect(window.rankBefore[1]).to.equal(2);
    expect(window.boundPairs).to.deep.equal([
      [3, 120],
      [2, 90],
      [1, 40],
    ]);
  });

  it('refuses postings out of order or beyond what the payload holds', () => {
    expect(() =>
      encodeWindow([
        { offset: 5, tf: 1, length: 9 },
        { offset: 5, tf: 1, length: 9 },
      ]),
    ).to.throw(/order/);
    expect(() => encodeWindow([{ offset: windowSpan, tf: 1, length: 9 }])).to.throw(/range/);
    expect(() => encodeWindow([{ offset: 1, tf: 256, length: 9 }])).to.throw(/range/);
    expect(() => openWindow(encodeWindow([{ offset: 1, tf: 2, length: 9 }]).subarray(1))).to.throw(/size/);
  });

  it('reads a payload wherever it lies in memory (a read cuts it out of a larger buffer)', () => {
    const payload = encodeWindow([{ offset: 40_000, tf: 4, length: 70 }]);
    const larger = Buffer.alloc(payload.byteLength + 7);
    larger.set(payload, 3);
    const window = openWindow(larger.subarray(3, 3 + payload.byteLength));
    expect([...window.tf, ...window.lengths]).to.deep.equal([4, 70]);
    expect(window.rankBefore[2047]).to.equal(1);
  });

  for (const [name, density, limit] of [
    ['four frequent terms, top 10', [0.25, 0.25, 0.25, 0.25], 10],
    ['two terms of unequal frequency, top 30', [0.3, 0.06], 30],
    ['three terms, one of them rare, top 50', [0.2, 0.2, 0.002], 50],
    ['one term (many ties), top 25', [0.25], 25],
    ['five terms, more results asked than chunks with all of them', [0.1, 0.1, 0.1, 0.1, 0.1], 200],
  ] as const) {
    it(`gives the exact BM25 top k and scores of scoring every posting: ${name}`, () => {
      const data = corpus(name.length, 3 * windowSpan + 1_234, density);
      const weights = density.map((share) => Math.log(1 + (1 - share + 0.01) / (share + 0.01)));
      const expected = scoreEverything(data, weights, 187.5, limit);
      expect(expected).to.have.length(limit);
      expect(rank(data, weights, 187.5, limit)).to.deep.equal(expected);
    });
  }

  it('stays exact with long chunks of high tf (loose window bounds) and a window only some terms have', () => {
    const data = corpus(7, 2 * windowSpan, [0.25, 0.15, 0.25], 40);
    // The second term has no posting in the first window.
    for (const chunk of [...(data.postings[1] as Map<number, number>).keys()])
      if (chunk < windowSpan) data.postings[1]?.delete(chunk);
    for (const averageLength of [60, 190, 900]) {
      const expected = scoreEverything(data, [1.3, 2.1, 0.7], averageLength, 20);
      expect(rank(data, [1.3, 2.1, 0.7], averageLength, 20)).to.deep.equal(expected);
    }
  });

  for (const [name, density, sparseFrom] of [
    ['two frequent terms and a rare one', [0.25, 0.2, 0.003], 2],
    ['one frequent term and two rare ones', [0.25, 0.004, 0.002], 1],
    ['rare terms only', [0.003, 0.002], 0],
  ] as const) {
    it(`stays exact with rare terms' postings beside the windows: ${name}`, () => {
      const data = corpus(sparseFrom + 11, 2 * windowSpan + 77, density);
      const weights = density.map((share) => Math.log(1 + (1 - share + 0.01) / (share + 0.01)));
      for (const limit of [1, 10, 40]) {
        const expected = scoreEverything(data, weights, 190, limit);
        expect(rank(data, weights, 190, limit, sparseFrom)).to.deep.equal(expected);
      }
    });
  }

  it('ranks a chunk with a rare term once, by its full score, even when that term weighs little', () => {
    const data = corpus(5, windowSpan + 500, [0.25, 0.25, 0.3]);
    const expected = scoreEverything(data, [1, 1, 0.01], 190, 50);
    expect(rank(data, [1, 1, 0.01], 190, 50, 2)).to.deep.equal(expected);
  });

  it('has nothing to rank without terms or postings', () => {
    expect(rankWindows([], 190, 10)).to.deep.equal([]);
    expect(rankWindows([{ weight: 1, windows: new Map() }], 190, 10)).to.deep.equal([]);
  });
});
