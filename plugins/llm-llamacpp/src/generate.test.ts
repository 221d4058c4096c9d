import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DocqaError, type GenerateRequest, type LlmBackend, type Logger } from '@docqa/plugin-api';
import { writeTinyLlamaChatModel } from '@docqa/plugin-testkit';
import llmLlamaCppPlugin, { type LlamaCppLlmOptionsInput } from './index.js';
import { loadChatModel } from './load-model.js';
import { createLlamaCppLlmBackend } from './provider.js';

const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

async function startBackend(options: LlamaCppLlmOptionsInput) {
  const stopHooks: Array<() => unknown> = [];
  const backend = await llmLlamaCppPlugin.init({
    options: llmLlamaCppPlugin.configSchema.parse(options),
    instanceId: 'llm-llamacpp',
    deps: {},
    logger: quietLogger,
    onStop: (hook) => stopHooks.push(hook),
    signal: new AbortController().signal,
  });
  const stop = async () => {
    for (const hook of stopHooks.splice(0).reverse()) await hook();
  };
  return { backend, stop };
}

const ask = (maxTokens: number, content = 'How long are invoices archived?'): GenerateRequest => ({
  messages: [{ role: 'user', content }],
  maxTokens,
  temperature: 0,
});

/** Runs one generation, noting when its first and last pieces arrived; never throws. */
async function run(backend: LlmBackend, request: GenerateRequest, signal = new AbortController().signal) {
  const pieces: string[] = [];
  let firstAt = 0;
  let error: unknown = null;
  try {
    for await (const piece of backend.generate(request, signal)) {
      firstAt ||= performance.now();
      pieces.push(piece);
    }
  } catch (failure) {
    error = failure;
  }
  return { text: pieces.join(''), pieces: pieces.length, firstAt, endedAt: performance.now(), error };
}

describe('llm-llamacpp: generation', function () {
  this.timeout(60_000);
  let directory: string;
  let modelPath: string;
  let oneSequence: Awaited<ReturnType<typeof startBackend>>;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'docqa-llm-llamacpp-'));
    ({ path: modelPath } = await writeTinyLlamaChatModel(join(directory, 'tiny-llama.gguf')));
    oneSequence = await startBackend({ modelPath, threads: 1, sequences: 1 });
  });

  after(async () => {
    await oneSequence?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('queues requests beyond `sequences`: the second starts after the first ends, and both complete', async () => {
    const { backend } = oneSequence;
    const [first, second] = await Promise.all([run(backend, ask(200)), run(backend, ask(20))]);
    expect([first.error, second.error]).to.deep.equal([null, null]);
    expect([first.text.length, second.text.length]).to.deep.equal([200, 20]);
    expect(second.firstAt, 'the second request waited for the only sequence').to.be.greaterThan(first.endedAt - 5);
  });

  it('answers the same at temperature 0 whatever ran before on the sequence (its state is cleared)', async () => {
    const { backend } = oneSequence;
    const before = await run(backend, ask(24));
    await run(backend, ask(40, 'Something else entirely, to leave other tokens behind.'));
    expect((await run(backend, ask(24))).text).to.equal(before.text);
  });

  it('drops a queued request whose signal aborts, at once, and still serves the others', async () => {
    const { backend } = oneSequence;
    const running = run(backend, ask(300));
    const controller = new AbortController();
    const queued = run(backend, ask(20), controller.signal);
    const abortedAt = performance.now();
    controller.abort(new Error('client went away'));
    const dropped = await queued;
    expect(dropped.endedAt - abortedAt).to.be.below(100);
    expect(dropped.pieces).to.equal(0);
    expect((dropped.error as Error).message).to.equal('client went away');
    expect((await running).text).to.have.lengthOf(300);
    expect((await run(backend, ask(8))).text).to.have.lengthOf(8);
  });

  it('releases the sequence when the consumer breaks out early', async () => {
    const { backend } = oneSequence;
    for await (const _piece of backend.generate(ask(1000), new AbortController().signal)) break;
    const next = await Promise.race([
      run(backend, ask(8)),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000)),
    ]);
    expect(next).to.have.property('text').with.lengthOf(8);
  });

  it('stops an answer where the context ends instead of shifting the prompt out', async () => {
    const small = await startBackend({ modelPath, threads: 1, contextSize: 256 });
    try {
      const content = 'x'.repeat(200);
      const { text, error } = await run(small.backend, ask(4096, content));
      expect(error).to.equal(null);
      // The prompt is the 200 bytes plus ChatML's markers (about 20 tokens); the answer fills the rest.
      expect(text.length).to.be.within(1, 256 - 200);
    } finally {
      await small.stop();
    }
  });

  it('fails with unavailable when a generation outlives timeoutSeconds, or waits in line past it', async () => {
    const hasty = await startBackend({ modelPath, threads: 1, sequences: 1, timeoutSeconds: 0.2 });
    try {
      const started = performance.now();
      const [long, queued] = await Promise.all([run(hasty.backend, ask(2000)), run(hasty.backend, ask(8))]);
      for (const outcome of [long, queued]) {
        expect(outcome.error).to.be.instanceOf(DocqaError).with.property('code', 'unavailable');
        expect((outcome.error as Error).message).to.include('did not answer within 0.2 s');
        expect(outcome.endedAt - started).to.be.below(1_000);
      }
      expect(long.pieces, 'the long answer had started').to.be.greaterThan(0);
      expect(queued.pieces).to.equal(0);
    } finally {
      await hasty.stop();
    }
  });

  it('fails the generations under way with unavailable when the plugin stops, and stops promptly', async () => {
    const stopping = await startBackend({ modelPath, threads: 1, sequences: 1 });
    const answering = run(stopping.backend, ask(2000));
    const waiting = run(stopping.backend, ask(8));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopStarted = performance.now();
    await stopping.stop();
    expect(performance.now() - stopStarted).to.be.below(1_000);
    for (const outcome of [await answering, await waiting]) {
      expect(outcome.error).to.be.instanceOf(DocqaError).with.property('code', 'unavailable');
      expect((outcome.error as Error).message).to.include('shutting down');
    }
  });

  it('reports a failure of llama.cpp itself as unavailable, keeping the cause', async () => {
    const loaded = await loadChatModel(llmLlamaCppPlugin.configSchema.parse({ modelPath, threads: 1 }), quietLogger);
    try {
      const backend = createLlamaCppLlmBackend(
        loaded,
        llmLlamaCppPlugin.configSchema.parse({ modelPath, threads: 1 }),
        quietLogger,
      );
      await loaded.context.dispose(); // the sequences go with it, as when the native side gives up
      const { error } = await run(backend, ask(8));
      expect(error).to.be.instanceOf(DocqaError).with.property('code', 'unavailable');
      expect((error as Error).message).to.match(/^the local chat model failed: /);
      expect((error as DocqaError).cause).to.be.instanceOf(Error);
    } finally {
      await loaded.dispose();
    }
  });

  it('refuses a request it cannot take: no messages, maxTokens below 1', async () => {
    const { backend } = oneSequence;
    for (const request of [
      { messages: [], maxTokens: 8 },
      { ...ask(8), maxTokens: 0 },
      { ...ask(8), maxTokens: 2.5 },
    ]) {
      const { error } = await run(backend, request);
      expect(error, JSON.stringify(request)).to.be.instanceOf(DocqaError).with.property('code', 'validation_failed');
    }
  });
});
