import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DocqaError, type Logger, type RerankerProvider } from '@docqa/plugin-api';
import {
  describeRerankerConformance,
  writeTinyBertEmbeddingModel,
  writeTinyBertRerankerModel,
} from '@docqa/plugin-testkit';
import rerankerLlamaCppPlugin, { type LlamaCppRerankerOptionsInput } from './index.js';

const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

/** Starts the plugin the way the kernel does, without a kernel: parsed options, a quiet logger. */
async function startProvider(
  options: LlamaCppRerankerOptionsInput,
): Promise<{ provider: RerankerProvider; stop(): Promise<void> }> {
  const stopHooks: Array<() => unknown> = [];
  const provider = await rerankerLlamaCppPlugin.init({
    options: rerankerLlamaCppPlugin.configSchema.parse(options),
    instanceId: 'reranker-llamacpp',
    deps: {},
    logger: quietLogger,
    onStop: (hook) => stopHooks.push(hook),
    signal: new AbortController().signal,
  });
  const stop = async () => {
    for (const hook of stopHooks.reverse()) await hook();
  };
  return { provider, stop };
}

async function temporaryDirectory(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'docqa-reranker-llamacpp-'));
}

describeRerankerConformance('reranker-llamacpp (tiny random BERT cross-encoder)', {
  async start() {
    const directory = await temporaryDirectory();
    // A small context, so that the conformance suite's long text really overflows it.
    const { path } = await writeTinyBertRerankerModel(join(directory, 'tiny-reranker.gguf'), { contextLength: 128 });
    const { provider, stop } = await startProvider({ modelPath: path, threads: 1 });
    return {
      provider,
      dispose: async () => {
        await stop();
        await rm(directory, { recursive: true, force: true });
      },
    };
  },
});

describe('reranker-llamacpp', function () {
  this.timeout(60_000);
  let directory: string;

  before(async () => {
    directory = await temporaryDirectory();
  });

  after(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('gives the same scores for the same model file, and names its model after the file or modelName', async () => {
    const { path } = await writeTinyBertRerankerModel(join(directory, 'tiny-reranker.gguf'));
    const first = await startProvider({ modelPath: path, threads: 1 });
    const second = await startProvider({ modelPath: path, threads: 1, modelName: 'bge-reranker-v2-m3' });
    try {
      const texts = ['Reset your password on the account page.', 'Invoices are archived for ten years.'];
      const scores = await first.provider.rank('password reset', texts);
      expect(
        scores.every((score) => score > 0 && score < 1),
        `scores ${scores.join(', ')} are probabilities`,
      ).to.equal(true);
      expect(await second.provider.rank('password reset', texts)).to.deep.equal(scores);
      expect(first.provider.model).to.equal('tiny-reranker');
      expect(second.provider.model).to.equal('bge-reranker-v2-m3');
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('refuses an embedding model without a ranking head, naming the file', async () => {
    const { path } = await writeTinyBertEmbeddingModel(join(directory, 'tiny-embedder.gguf'));
    const failure = await startProvider({ modelPath: path, threads: 1 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(DocqaError);
    expect((failure as DocqaError).message)
      .to.include(path)
      .and.include('not a cross-encoder reranker');
  });

  it('refuses a missing file with not_found, naming the path', async () => {
    const path = join(directory, 'missing.gguf');
    const failure = await startProvider({ modelPath: path }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(DocqaError);
    expect((failure as DocqaError).code).to.equal('not_found');
    expect((failure as DocqaError).message).to.include(path);
  });

  it('refuses a relative model path or another extension at option parsing', () => {
    expect(rerankerLlamaCppPlugin.configSchema.safeParse({ modelPath: 'models/x.gguf' }).success).to.equal(false);
    expect(rerankerLlamaCppPlugin.configSchema.safeParse({ modelPath: '/models/x.bin' }).success).to.equal(false);
  });
});
