import { expect } from 'chai';
import { DocqaError, type GenerateRequest, type LlmBackend } from '@docqa/plugin-api';

/**
 * What an LLM plugin's test hands the conformance suite; `start()` runs once for the suite. When the
 * backend has a failure switch (a test server that can fail), `failNextRequest` lets the suite check
 * that failures surface as DocqaErrors.
 */
export interface LlmConformanceSetup {
  start(): Promise<{
    backend: LlmBackend;
    /** Makes the next generate call fail the way the backend's dependency fails (server down, 500). */
    failNextRequest?(): void;
    dispose(): Promise<void>;
  }>;
}

type Started = Awaited<ReturnType<LlmConformanceSetup['start']>>;

/** How long a backend may keep going after its signal aborted. */
const abortDeadlineMs = 2_000;

const groundedRequest = (maxTokens: number): GenerateRequest => ({
  messages: [
    { role: 'system', content: 'Answer from the numbered passages only and cite them as [n].' },
    {
      role: 'user',
      content:
        'Passages:\n[1] Invoices: Invoices are archived for ten years in the finance vault.\n[2] Passwords: Reset ' +
        'your password from the sign-in page.\n\nQuestion: How long are invoices archived?',
    },
  ],
  maxTokens,
  temperature: 0,
  grounding: {
    question: 'How long are invoices archived?',
    passages: [
      { index: 1, title: 'Invoices', text: 'Invoices are archived for ten years in the finance vault.' },
      { index: 2, title: 'Passwords', text: 'Reset your password from the sign-in page.' },
    ],
  },
});

/**
 * The behaviour every LLM plugin owes the chat pipeline: honest model information, streamed
 * non-empty pieces within the token limit, generation that stops when the client goes away, token
 * counts that grow with the text, concurrent requests that each get their own answer, and failures
 * that arrive as DocqaErrors rather than as whatever the client library threw.
 */
export function describeLlmConformance(name: string, setup: LlmConformanceSetup): void {
  describe(`${name}: llm conformance`, function () {
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

    const current = (): Started => {
      if (!started) throw new Error('setup.start() did not run');
      return started;
    };

    it(
      'describes itself: a backend and model name, and a ' + 'context length that is null or a positive whole number',
      async () => {
        const info = await current().backend.info();
        expect(info.backend).to.be.a('string').and.not.empty;
        expect(info.model).to.be.a('string').and.not.empty;
        if (info.contextLength !== null)
          expect(
            Number.isInteger(info.contextLength) && info.contextLength > 0,
            `contextLength ${info.contextLength}`,
          ).to.equal(true);
        expect(info.gpu).to.be.a('boolean');
        expect(JSON.stringify(info)).to.not.match(/api[-_]?key|secret/i);
      },
    );

    it('streams an answer as non-empty string pieces', async () => {
      const pieces = await collect(current().backend, groundedRequest(32), new AbortController().signal);
      expect(pieces.length).to.be.greaterThan(0);
      for (const piece of pieces) expect(piece).to.be.a('string').and.not.equal('');
      expect(pieces.join('').trim()).to.not.equal('');
    });

    it('stays within maxTokens', async () => {
      const { backend } = current();
      const pieces = await collect(backend, groundedRequest(8), new AbortController().signal);
      const text = pieces.join('');
      if (backend.countTokens) {
        // One token of slack: a detokenised piece can re-tokenise one longer at a boundary.
        expect(await backend.countTokens(text)).to.be.at.most(9);
      } else {
        // No tokenizer: no more pieces than tokens, as every streamed piece holds at least one token.
        expect(pieces.length).to.be.at.most(8);
      }
    });

    it(
      'ends promptly when its signal aborts mid-answer, ' + 'and yields nothing once aborted before it starts',
      async () => {
        const { backend } = current();
        const controller = new AbortController();
        let abortedAt = 0;
        let piecesAfterAbort = 0;
        const iteration = (async () => {
          for await (const _piece of backend.generate(groundedRequest(4096), controller.signal)) {
            if (abortedAt === 0) {
              abortedAt = Date.now();
              controller.abort();
            } else {
              piecesAfterAbort += 1;
            }
          }
        })();
        await iteration.catch(() => undefined);
        expect(abortedAt, 'the backend yielded nothing to abort after').to.be.greaterThan(0);
        expect(Date.now() - abortedAt).to.be.below(abortDeadlineMs);
        expect(piecesAfterAbort, 'pieces yielded after the abort').to.be.at.most(2);

        const aborted = new AbortController();
        aborted.abort();
        const late = await collect(backend, groundedRequest(32), aborted.signal).catch(() => []);
        expect(late).to.deep.equal([]);
      },
    );

    it('answers two requests at once, each completely', async () => {
      const { backend } = current();
      const [first, second] = await Promise.all([
        collect(backend, groundedRequest(16), new AbortController().signal),
        collect(backend, groundedRequest(16), new AbortController().signal),
      ]);
      expect(first.join('').trim()).to.not.equal('');
      expect(second.join('').trim()).to.not.equal('');
    });

    it(
      'counts tokens exactly when it says it has a ' + 'tokenizer: positive, and more for a longer text',
      async function () {
        const { backend } = current();
        if (!backend.capabilities.tokenizer) {
          expect(backend.countTokens, 'countTokens without capabilities.tokenizer').to.equal(undefined);
          this.skip();
        }
        expect(backend.countTokens, 'capabilities.tokenizer without countTokens').to.be.a('function');
        const short = await backend.countTokens!('Invoices are archived.');
        const long = await backend.countTokens!(
          'Invoices are archived for ten years in the finance vault, then shredded.',
        );
        expect(Number.isInteger(short) && short > 0).to.equal(true);
        expect(long).to.be.greaterThan(short);
        expect(await backend.countTokens!('')).to.equal(0);
      },
    );

    it('reports a failing dependency as a DocqaError', async function () {
      const { backend, failNextRequest } = current();
      if (!failNextRequest) this.skip();
      failNextRequest!();
      const failure = await collect(backend, groundedRequest(16), new AbortController().signal).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).to.be.instanceOf(DocqaError);
      expect((failure as DocqaError).code).to.be.oneOf(['unavailable', 'validation_failed']);
    });
  });
}

async function collect(backend: LlmBackend, request: GenerateRequest, signal: AbortSignal): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of backend.generate(request, signal)) pieces.push(piece);
  return pieces;
}
