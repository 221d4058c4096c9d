import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DocqaError, providerTokens, type EmbeddingProvider, type Logger } from '@docqa/plugin-api';
import { describeEmbedderConformance, startTestKernel, writeTinyBertEmbeddingModel } from '@docqa/plugin-testkit';
import { getLlamaGpuTypes } from 'node-llama-cpp';
import embedderLlamaCppPlugin, {
  llamaCppEmbedderDeviceFromVariables,
  type LlamaCppEmbedderOptionsInput,
} from './index.js';

const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

/** Starts the plugin the way the kernel does, without a kernel: parsed options, a quiet logger. */
async function startProvider(
  options: LlamaCppEmbedderOptionsInput,
  logger = quietLogger,
): Promise<{ provider: EmbeddingProvider; stop(): Promise<void> }> {
  const stopHooks: Array<() => unknown> = [];
  const provider = await embedderLlamaCppPlugin.init({
    options: embedderLlamaCppPlugin.configSchema.parse(options),
    instanceId: 'embedder-llamacpp',
    deps: {},
    logger,
    onStop: (hook) => stopHooks.push(hook),
    signal: new AbortController().signal,
  });
  const stop = async () => {
    for (const hook of stopHooks.reverse()) await hook();
  };
  return { provider, stop };
}

/** A temporary directory holding a tiny random BERT model the testkit writes (nothing is downloaded). */
async function tinyModelDirectory(): Promise<{ directory: string; modelPath: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'docqa-embedder-llamacpp-'));
  const { path } = await writeTinyBertEmbeddingModel(join(directory, 'tiny-bert.gguf'), { dimensions: 32 });
  return { directory, modelPath: path };
}

describeEmbedderConformance('embedder-llamacpp (tiny random BERT)', {
  async start() {
    const { directory, modelPath } = await tinyModelDirectory();
    const { provider, stop } = await startProvider({ modelPath, threads: 1 });
    return {
      provider,
      dispose: async () => {
        await stop();
        await rm(directory, { recursive: true, force: true });
      },
    };
  },
});

describe('embedder-llamacpp', function () {
  this.timeout(60_000);
  let directory: string;
  let modelPath: string;

  before(async () => {
    ({ directory, modelPath } = await tinyModelDirectory());
  });

  after(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("names its space after the file and the model's embedding length, or after modelName", async () => {
    const byFile = await startProvider({ modelPath, threads: 1 });
    const named = await startProvider({ modelPath, threads: 1, modelName: 'bge-small-en-v1.5' });
    try {
      expect(byFile.provider.space).to.deep.equal({ model: 'tiny-bert', dimensions: 32 });
      expect(named.provider.space).to.deep.equal({ model: 'bge-small-en-v1.5', dimensions: 32 });
    } finally {
      await byFile.stop();
      await named.stop();
    }
  });

  it('fits maxInputTokens to contextSize, and truncates at it: a text and its longer continuation embed alike', async () => {
    const { provider, stop } = await startProvider({ modelPath, threads: 1, contextSize: 64 });
    try {
      // 64 minus [CLS], [SEP] and the one token node-llama-cpp keeps free.
      expect(provider.maxInputTokens).to.equal(61);
      const words = Array.from({ length: 61 }, (_, index) => ['alpha', 'beta', 'gamma'][index % 3]).join(' ');
      const [exact, longer, different] = await provider.embed([
        words,
        `${words} and a lot more words after the limit`,
        `${words.slice(6)}`,
      ]);
      expect(Array.from(longer ?? [])).to.deep.equal(Array.from(exact ?? []));
      expect(Array.from(different ?? [])).to.not.deep.equal(Array.from(exact ?? []));
    } finally {
      await stop();
    }
  });

  it('refuses options zod can check: a relative path, a file that is not .gguf, threads below 1', () => {
    const problems = (options: unknown) => {
      const result = embedderLlamaCppPlugin.configSchema.safeParse(options);
      return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    expect(problems({ modelPath: 'models/bge.gguf' })).to.deep.equal([
      'modelPath: modelPath must be an absolute path to a .gguf file',
    ]);
    expect(problems({ modelPath: '/models/bge.bin' })).to.deep.equal(['modelPath: modelPath must name a .gguf file']);
    expect(problems({ modelPath, threads: 0 })).to.have.lengthOf(1);
    expect(problems({ modelPath, gpu: 'vulkan' })).to.have.lengthOf(1);
    expect(problems({ modelPath, unknownOption: true })).to.have.lengthOf(1);
  });

  it('still starts with the old batchSize option, warning that it has no effect', async () => {
    const warnings: string[] = [];
    const logger: Logger = {
      ...quietLogger,
      warn: (_fields, message) => void warnings.push(String(message)),
      child: () => logger,
    };
    const { provider, stop } = await startProvider({ modelPath, threads: 1, batchSize: 32 }, logger);
    try {
      expect(await provider.embed(['still embeds'])).to.have.lengthOf(1);
      expect(warnings).to.deep.equal([
        'the option batchSize has no effect any more: the embedding thread looks at the abort signal after every text',
      ]);
    } finally {
      await stop();
    }
  });

  it('fails init with a message naming the path of a file that is not a model', async () => {
    const notAModel = join(directory, 'not-a-model.gguf');
    await writeFile(notAModel, 'this is not GGUF');
    const error = await startProvider({ modelPath: notAModel, threads: 1 }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(DocqaError);
    expect((error as DocqaError).message).to.include(notAModel);
  });

  it('stops kernel start-up when the model file is missing, naming the plugin instance and the path', async () => {
    const missing = join(directory, 'missing', 'bge-small.gguf');
    const error = await startTestKernel({
      plugins: [{ plugin: embedderLlamaCppPlugin, instance: 'local-embedder', options: { modelPath: missing } }],
      logs: [],
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error, 'start-up must fail').to.be.instanceOf(Error);
    expect(error).to.have.property('code', 'plugin_failed');
    expect((error as Error).message)
      .to.include("plugin instance 'local-embedder' (embedder-llamacpp)")
      .and.include(missing)
      .and.include('no such file');
  });

  it('starts in a kernel and is registered as the embedder', async () => {
    const kernel = await startTestKernel({
      plugins: [{ plugin: embedderLlamaCppPlugin, options: { modelPath, threads: 1 } }],
      logs: [],
    });
    try {
      const [vector] = await kernel.resolve(providerTokens.embedder).embed(['through the kernel']);
      expect(vector).to.have.lengthOf(32);
    } finally {
      await kernel.dispose();
    }
  });
});

describe('embedder-llamacpp: the device (EMBED_DEVICE, N_GPU_LAYERS)', function () {
  this.timeout(60_000);
  let directory: string;
  let modelPath: string;

  before(async () => {
    ({ directory, modelPath } = await tinyModelDirectory());
  });
  after(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('runs on the CPU with gpu false, and says so', async () => {
    const { provider, stop } = await startProvider({ modelPath, threads: 1, gpu: false });
    try {
      expect(provider.device).to.equal('cpu');
    } finally {
      await stop();
    }
  });

  it('reports the device auto picked: a GPU backend node-llama-cpp can use, else the CPU', async () => {
    const usable = (await getLlamaGpuTypes('supported')).filter((type) => type !== false);
    const { provider, stop } = await startProvider({ modelPath, threads: 1, gpu: 'auto' });
    try {
      if (usable.length === 0) expect(provider.device).to.equal('cpu');
      else expect(['cpu', ...usable]).to.include(provider.device);
      // Embeddings still work wherever they run.
      expect((await provider.embed(['invoices']))[0]).to.have.lengthOf(32);
    } finally {
      await stop();
    }
  });

  it('fails to start with cuda where CUDA cannot be used, telling what to set instead', async function () {
    if ((await getLlamaGpuTypes('supported')).includes('cuda')) this.skip();
    const failure = await startProvider({ modelPath, threads: 1, gpu: 'cuda' }).then(
      async ({ stop }) => {
        await stop();
        return null;
      },
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(DocqaError);
    expect((failure as DocqaError).code).to.equal('unavailable');
    expect((failure as DocqaError).message)
      .to.include('EMBED_DEVICE=cuda')
      .and.to.include('EMBED_DEVICE=auto');
  });

  it("maps DocQA's EMBED_DEVICE and N_GPU_LAYERS onto the options", () => {
    const device = (values: Record<string, unknown>) => llamaCppEmbedderDeviceFromVariables((name) => values[name]);
    expect(device({ EMBED_DEVICE: 'auto', N_GPU_LAYERS: 0 })).to.deep.equal({ gpu: 'auto' });
    expect(device({ EMBED_DEVICE: 'cpu', N_GPU_LAYERS: 0 })).to.deep.equal({ gpu: false });
    expect(device({ EMBED_DEVICE: 'cuda', N_GPU_LAYERS: 12 })).to.deep.equal({ gpu: 'cuda', gpuLayers: 12 });
    expect(device({ EMBED_DEVICE: 'cuda', N_GPU_LAYERS: -1 })).to.deep.equal({ gpu: 'cuda', gpuLayers: -1 });
  });
});
