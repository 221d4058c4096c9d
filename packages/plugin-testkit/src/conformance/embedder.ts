import { expect } from 'chai';
import type { EmbeddingProvider } from '@docqa/plugin-api';

/** What an embedder's test hands the conformance suite; `start()` runs once for the suite. */
export interface EmbedderConformanceSetup {
  start(): Promise<{ provider: EmbeddingProvider; dispose(): Promise<void> }>;
}

type Started = Awaited<ReturnType<EmbedderConformanceSetup['start']>>;

/** How far one text's vector may move between a batch and a call of its own. */
const sameVectorTolerance = 1e-4;

const batchTexts = [
  'How do I reset my password?',
  'The quarterly report is due on Friday.',
  'Vector stores keep one embedding per chunk.',
  'the',
  'How do I reset my password?', // repeated on purpose: the same text must give the same vector
  'Invoices are archived for ten years.',
  'A short one.',
];

/**
 * The behaviour every embedding plugin owes the rest of DocQA: a declared space the vectors match,
 * one vector per text in order and independent of its batch, finite non-trivial numbers, prompt
 * cancellation, and any input (empty, over-long, any script) embedded instead of thrown on.
 */
export function describeEmbedderConformance(name: string, setup: EmbedderConformanceSetup): void {
  describe(`${name}: embedder conformance`, function () {
    this.timeout(60_000);
    let started: Started | null = null;

    before(async function () {
      this.timeout(120_000);
      started = await setup.start();
    });

    after(async function () {
      this.timeout(60_000);
      await started?.dispose();
      started = null;
    });

    const provider = (): EmbeddingProvider => {
      if (!started) throw new Error('setup.start() did not run');
      return started.provider;
    };

    /** Checks vectors of the declared space and answers them as plain arrays. */
    async function embedChecked(texts: string[], signal?: AbortSignal): Promise<number[][]> {
      const vectors = await provider().embed(texts, signal);
      expect(vectors, 'one vector per text').to.have.lengthOf(texts.length);
      return vectors.map((vector, index) => {
        expect(vector, `vector ${index} is a Float32Array`).to.be.instanceOf(Float32Array);
        expect(vector, `vector ${index} has space.dimensions numbers`).to.have.lengthOf(provider().space.dimensions);
        const values = Array.from(vector);
        expect(values.every(Number.isFinite), `vector ${index} holds only finite numbers`).to.equal(true);
        return values;
      });
    }

    it('declares its space: a model name and a positive integer of dimensions, and a positive maxInputTokens', () => {
      const { space, maxInputTokens } = provider();
      expect(space.model, 'space.model').to.be.a('string').and.not.equal('');
      expect(
        Number.isInteger(space.dimensions) && space.dimensions > 0,
        `space.dimensions ${space.dimensions}`,
      ).to.equal(true);
      expect(Number.isInteger(maxInputTokens) && maxInputTokens > 0, `maxInputTokens ${maxInputTokens}`).to.equal(true);
    });

    it('answers no vectors for no texts', async () => {
      expect(await provider().embed([])).to.deep.equal([]);
    });

    it('answers one vector per text, in order, each the same as when embedded alone', async () => {
      const together = await embedChecked(batchTexts);
      for (const [index, vector] of together.entries()) {
        expect(
          vector.some((value) => value !== 0),
          `vector ${index} is not all zero`,
        ).to.equal(true);
      }
      for (const [index, text] of batchTexts.entries()) {
        const [alone] = await embedChecked([text]);
        expectClose(
          together[index] ?? [],
          alone ?? [],
          `text ${index} (${JSON.stringify(text)}) in the batch and alone`,
        );
      }
      expectClose(together[0] ?? [], together[4] ?? [], 'the same text twice in one batch');
    });

    it('gives different texts different vectors', async () => {
      const [first, second, third] = await embedChecked(batchTexts.slice(0, 3));
      expect(distance(first ?? [], second ?? []), 'texts 0 and 1').to.be.greaterThan(sameVectorTolerance * 10);
      expect(distance(second ?? [], third ?? []), 'texts 1 and 2').to.be.greaterThan(sameVectorTolerance * 10);
    });

    it('rejects with the reason of a signal aborted before the call', async () => {
      const controller = new AbortController();
      const reason = new Error('the request was cancelled');
      controller.abort(reason);
      const failure = await provider()
        .embed(['never embedded'], controller.signal)
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failure, 'embed must reject once its signal is aborted').to.equal(reason);
    });

    it('rejects with the reason of a signal aborted while a batch is under way', async () => {
      const controller = new AbortController();
      const reason = new Error('the request was cancelled midway');
      const texts = Array.from({ length: 64 }, (_, index) => `text number ${index} of a batch that is cancelled`);
      const pending = provider().embed(texts, controller.signal);
      controller.abort(reason);
      const failure = await pending.then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure, 'embed must reject once its signal is aborted').to.equal(reason);
    });

    it('embeds an empty string and a whitespace-only string without throwing', async () => {
      await embedChecked(['', '   \n\t']);
    });

    it('truncates a text far beyond maxInputTokens instead of throwing', async () => {
      const words = 2 * provider().maxInputTokens + 10; // every word is at least one token
      const long = Array.from(
        { length: words },
        (_, index) => ['lorem', 'ipsum', 'dolor', 'sit', 'amet'][index % 5],
      ).join(' ');
      const [vector, next] = await embedChecked([long, 'a short text after the long one']);
      expect(
        vector?.some((value) => value !== 0),
        'the long text vector is not all zero',
      ).to.equal(true);
      expect(
        next?.some((value) => value !== 0),
        'the text after it is still embedded',
      ).to.equal(true);
    });

    it('embeds text in any script, with emoji and combining marks', async () => {
      const texts = [
        'Ünïcødé — naïve café',
        '日本語のテキストを検索する',
        'Привет, мир',
        'مرحبا بالعالم',
        'emoji 📚🔑 and e\u0301 combined',
      ];
      const vectors = await embedChecked(texts);
      for (const [index, vector] of vectors.entries())
        expect(
          vector.some((value) => value !== 0),
          `vector ${index} is not all zero`,
        ).to.equal(true);
    });
  });
}

function expectClose(actual: readonly number[], expected: readonly number[], what: string): void {
  expect(actual.length, `${what}: length`).to.equal(expected.length);
  const worst = actual.reduce(
    (largest, value, index) => Math.max(largest, Math.abs(value - (expected[index] ?? Number.NaN))),
    0,
  );
  expect(worst, `${what}: largest difference`).to.be.at.most(sameVectorTolerance);
}

function distance(left: readonly number[], right: readonly number[]): number {
  return Math.hypot(...left.map((value, index) => value - (right[index] ?? 0)));
}
