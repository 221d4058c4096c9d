import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'chai';
import { DocqaError, type Logger } from '@docqa/plugin-api';
import { writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import { llamaCppEmbedderOptionsSchema } from './config.js';
import { startEmbeddingThread, type EmbeddingThread } from './thread-client.js';

const lines: Array<{ level: string; fields: unknown; message: string | undefined }> = [];
const logger: Logger = {
  debug: (fields, message) => void lines.push({ level: 'debug', fields, message }),
  info: (fields, message) => void lines.push({ level: 'info', fields, message }),
  warn: (fields, message) => void lines.push({ level: 'warn', fields, message }),
  error: (fields, message) => void lines.push({ level: 'error', fields, message }),
  child: () => logger,
};

/** Blocks this thread, as a long SQL statement of the embedded database does. */
function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('embedder-llamacpp: the embedding thread', function () {
  this.timeout(60_000);
  let directory: string;
  let thread: EmbeddingThread;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'docqa-embedding-thread-'));
    const { path } = await writeTinyBertEmbeddingModel(join(directory, 'tiny-bert.gguf'), { dimensions: 32 });
    thread = await startEmbeddingThread(
      llamaCppEmbedderOptionsSchema.parse({ modelPath: path, threads: 1 }),
      'tiny-bert',
      logger,
    );
  });

  after(async () => {
    await thread?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it("keeps embedding while the server's thread is busy", async () => {
    const texts = Array.from({ length: 20 }, (_, index) => `text number ${index} about something`);
    const embedding = thread.provider.embed(texts);
    let answered = false;
    // Awaited below; this only notes when it settles.
    embedding.then(
      () => (answered = true),
      () => undefined,
    );
    // 20 texts take the tiny model well under 0.2 s; this thread gives no turn for 2 s. Had the
    // model needed this thread between texts (it did before the embedding thread), one text would
    // be done by now, not all twenty.
    blockFor(2_000);
    await nextTurn();
    expect(answered, 'all twenty vectors were there at the first turn after the block').to.equal(true);
    expect(await embedding).to.have.lengthOf(20);
  });

  it('answers a request of one text before a long one under way, and both in full', async () => {
    const long = Array.from(
      { length: 300 },
      (_, index) => `a document's chunk, number ${index}, with a few words more`,
    );
    const order: string[] = [];
    const batch = thread.provider.embed(long).then((vectors) => {
      order.push('batch');
      return vectors;
    });
    const query = thread.provider.embed(['what does the contract say about notice?']).then((vectors) => {
      order.push('query');
      return vectors;
    });
    const [batchVectors, queryVectors] = await Promise.all([batch, query]);
    expect(order).to.deep.equal(['query', 'batch']);
    expect(batchVectors).to.have.lengthOf(300);
    expect(Array.from(queryVectors[0]!)).to.deep.equal(
      Array.from((await thread.provider.embed(['what does the contract say about notice?']))[0]!),
    );
  });

  it('drops the rest of a cancelled request and goes on with the next', async () => {
    const controller = new AbortController();
    const cancelled = thread.provider.embed(
      Array.from({ length: 300 }, (_, index) => `cancelled text ${index}`),
      controller.signal,
    );
    controller.abort(new DocqaError('unavailable', 'the ingest was cancelled'));
    const error = await cancelled.then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(DocqaError).and.to.have.property('message', 'the ingest was cancelled');
    expect(await thread.provider.embed(['after the cancel'])).to.have.lengthOf(1);
  });
});

describe('embedder-llamacpp: a thread that ends on its own', function () {
  this.timeout(30_000);
  const standIn = new URL('./crashing-thread.test-support.js', import.meta.url);
  const options = llamaCppEmbedderOptionsSchema.parse({ modelPath: '/models/unused.gguf' });

  it('fails the requests under way with unavailable, then starts a new thread for the next call', async () => {
    const thread = await startEmbeddingThread(options, 'stand-in', logger, standIn);
    try {
      expect(Array.from((await thread.provider.embed(['four']))[0]!)).to.deep.equal([4, 0, 0, 0]);
      const error = await thread.provider.embed(['crash']).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(DocqaError).and.to.have.property('code', 'unavailable');
      expect((error as Error).message).to.include('exit code 3');
      expect(Array.from((await thread.provider.embed(['again']))[0]!)).to.deep.equal([5, 0, 0, 0]);
      expect(
        lines.some((line) => line.level === 'warn' && line.message === 'starting the embedding thread again'),
      ).to.equal(true);
    } finally {
      await thread.stop();
    }
  });
});
