import { expect } from 'chai';
import type { RerankerProvider } from '@docqa/plugin-api';

/** What a reranker's test hands the conformance suite; `start()` runs once for the suite. */
export interface RerankerConformanceSetup {
  start(): Promise<{ provider: RerankerProvider; dispose(): Promise<void> }>;
}

type Started = Awaited<ReturnType<RerankerConformanceSetup['start']>>;

/** How far one text's score may move between a batch and a call of its own. */
const sameScoreTolerance = 1e-6;

const query = 'How do I reset my password?';
const texts = [
  'Open the account page and choose "Forgot password" to get a reset link.',
  'The quarterly report is due on Friday.',
  'Vector stores keep one embedding per chunk.',
  'the',
  'Open the account page and choose "Forgot password" to get a reset link.', // the same text twice on purpose
  'Invoices are archived for ten years.',
];

/**
 * The behaviour every reranker owes search: one finite score per text in order, the same score for a
 * text whatever else is in the call, different texts told apart, prompt cancellation, and any input
 * (empty, far too long, any script) scored instead of thrown on, since search falls back to the
 * fused order on any failure and a reranker that throws on odd input would silently do nothing.
 */
export function describeRerankerConformance(name: string, setup: RerankerConformanceSetup): void {
  describe(`${name}: reranker conformance`, function () {
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

    const provider = (): RerankerProvider => {
      if (!started) throw new Error('setup.start() did not run');
      return started.provider;
    };

    async function rankChecked(forQuery: string, candidates: string[], signal?: AbortSignal): Promise<number[]> {
      const scores = await provider().rank(forQuery, candidates, signal);
      expect(scores, 'one score per text').to.have.lengthOf(candidates.length);
      for (const [index, score] of scores.entries())
        expect(Number.isFinite(score), `score ${index} (${score}) is a finite number`).to.equal(true);
      return scores;
    }

    it('names its model', () => {
      expect(provider().model).to.be.a('string').and.not.equal('');
    });

    it('answers no scores for no texts', async () => {
      expect(await provider().rank(query, [])).to.deep.equal([]);
    });

    it('answers one score per text, in order, each the same as when ranked alone', async () => {
      const together = await rankChecked(query, texts);
      for (const [index, text] of texts.entries()) {
        const [alone] = await rankChecked(query, [text]);
        expect(
          Math.abs((together[index] ?? NaN) - (alone ?? NaN)),
          `text ${index} in the batch and alone`,
        ).to.be.at.most(sameScoreTolerance);
      }
      expect(together[0], 'the same text twice in one call').to.be.closeTo(together[4] ?? NaN, sameScoreTolerance);
      expect(await rankChecked(query, texts), 'the same call twice').to.deep.equal(together);
    });

    it('tells different texts apart, and the same text under different queries', async () => {
      const scores = await rankChecked(query, texts.slice(0, 4));
      expect(new Set(scores).size, `scores ${scores.join(', ')}`).to.equal(4);
      const [other] = await rankChecked('When is the quarterly report due?', texts.slice(0, 1));
      expect(other, 'another query, another score').to.not.equal(scores[0]);
    });

    it('rejects with the reason of a signal aborted before the call', async () => {
      const controller = new AbortController();
      const reason = new Error('the request was cancelled');
      controller.abort(reason);
      const failure = await provider()
        .rank(query, texts, controller.signal)
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failure, 'rank must reject once its signal is aborted').to.equal(reason);
    });

    it('rejects with the reason of a signal aborted while texts are being ranked', async () => {
      const controller = new AbortController();
      const reason = new Error('the request was cancelled midway');
      const many = Array.from({ length: 64 }, (_, index) => `text number ${index} of a ranking that is cancelled`);
      const pending = provider().rank(query, many, controller.signal);
      controller.abort(reason);
      const failure = await pending.then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure, 'rank must reject once its signal is aborted').to.equal(reason);
    });

    it('scores empty and whitespace-only texts and queries without throwing', async () => {
      await rankChecked(query, ['', '   \n\t']);
      await rankChecked('', texts.slice(0, 2));
    });

    it('scores a text and a query far beyond the context instead of throwing', async () => {
      const long = Array.from(
        { length: 5000 },
        (_, index) => ['lorem', 'ipsum', 'dolor', 'sit', 'amet'][index % 5],
      ).join(' ');
      await rankChecked(query, [long, 'a short text after the long one']);
      await rankChecked(long, ['a short text']);
    });

    it('scores text in any script, with emoji and combining marks', async () => {
      await rankChecked('検索', [
        'Ünïcødé — naïve café',
        '日本語のテキストを検索する',
        'Привет, мир',
        'emoji 📚🔑 and e\u0301',
      ]);
    });
  });
}
