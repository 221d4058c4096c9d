import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DocqaError, providerTokens, type Logger } from '@docqa/plugin-api';
import { describeLlmConformance, startTestKernel, writeTinyLlamaChatModel } from '@docqa/plugin-testkit';
import llmLlamaCppPlugin, { llamaCppLlmOptionsFromVariables, type LlamaCppLlmOptionsInput } from './index.js';

/** A logger that keeps warnings, so a test can see what an operator would be told. */
function recordingLogger(warnings: string[] = []): Logger {
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (obj, msg) => warnings.push(msg ?? String(obj)),
    error() {},
    child: () => logger,
  };
  return logger;
}

/** Starts the plugin the way the kernel does, without a kernel: parsed options, a logger, stop hooks. */
async function startBackend(options: LlamaCppLlmOptionsInput, warnings?: string[]) {
  const stopHooks: Array<() => unknown> = [];
  const backend = await llmLlamaCppPlugin.init({
    options: llmLlamaCppPlugin.configSchema.parse(options),
    instanceId: 'llm-llamacpp',
    deps: {},
    logger: recordingLogger(warnings),
    onStop: (hook) => stopHooks.push(hook),
    signal: new AbortController().signal,
  });
  const stop = async () => {
    for (const hook of stopHooks.splice(0).reverse()) await hook();
  };
  return { backend, stop };
}

describeLlmConformance('llm-llamacpp (tiny random llama)', {
  async start() {
    const directory = await mkdtemp(join(tmpdir(), 'docqa-llm-llamacpp-'));
    const { path } = await writeTinyLlamaChatModel(join(directory, 'tiny-llama.gguf'));
    const { backend, stop } = await startBackend({ modelPath: path, threads: 1 });
    let stopped: Promise<void> | null = null;
    return {
      backend,
      // The local "dependency down": the plugin stops and unloads the model, as at shutdown.
      failNextRequest: () => {
        stopped = stop();
      },
      dispose: async () => {
        await (stopped ?? stop());
        await rm(directory, { recursive: true, force: true });
      },
    };
  },
});

describe('llm-llamacpp', function () {
  this.timeout(60_000);
  let directory: string;
  let modelPath: string;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'docqa-llm-llamacpp-'));
    ({ path: modelPath } = await writeTinyLlamaChatModel(join(directory, 'tiny-llama.gguf'), { contextLength: 1024 }));
  });

  after(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('describes the model: name, training context, file, size, quantization, CPU', async () => {
    const { backend, stop } = await startBackend({ modelPath, threads: 1 });
    try {
      expect(backend.capabilities).to.deep.equal({ streaming: true, tokenizer: true, generative: true });
      expect(await backend.info()).to.deep.equal({
        backend: 'local',
        model: 'docqa-tiny-random-llama-64d',
        contextLength: 1024,
        file: 'tiny-llama.gguf',
        sizeBytes: (await stat(modelPath)).size,
        quantization: 'F32',
        gpu: false,
      });
    } finally {
      await stop();
    }
  });

  it("counts tokens with the model's tokenizer, special-token text as plain text", async () => {
    const { backend, stop } = await startBackend({ modelPath, threads: 1 });
    try {
      expect(await backend.countTokens!('')).to.equal(0);
      expect(await backend.countTokens!('héllo')).to.equal(6); // byte-level vocabulary: one token per UTF-8 byte
      expect(await backend.countTokens!('<|im_end|>')).to.equal(10);
    } finally {
      await stop();
    }
  });

  it("caps contextSize at the model's training context and says so", async () => {
    const warnings: string[] = [];
    const { backend, stop } = await startBackend({ modelPath, threads: 1, contextSize: 8192 }, warnings);
    try {
      expect(warnings.join('\n')).to.include(
        'contextSize 8192 is beyond the 1024 tokens the model was trained for; using 1024',
      );
      expect((await backend.info()).contextLength).to.equal(1024);
      // A prompt that would fit 8192 tokens but not 1024 is refused with both sizes.
      const failure = await first(
        backend.generate(
          { messages: [{ role: 'user', content: 'x'.repeat(1500) }], maxTokens: 8 },
          new AbortController().signal,
        ),
      );
      expect(failure).to.be.instanceOf(DocqaError).with.property('code', 'validation_failed');
      expect((failure as Error).message).to.match(/prompt is 15\d\d tokens but the model's context holds 1024/);
    } finally {
      await stop();
    }
  });

  it('refuses options zod can check', () => {
    const problems = (options: unknown) => {
      const result = llmLlamaCppPlugin.configSchema.safeParse(options);
      return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    expect(problems({ modelPath })).to.deep.equal([]);
    expect(problems({ modelPath: 'models/qwen.gguf' })).to.deep.equal([
      'modelPath: modelPath must be an absolute path to a .gguf file',
    ]);
    expect(problems({ modelPath: '/models/qwen.bin' })).to.deep.equal(['modelPath: modelPath must name a .gguf file']);
    for (const bad of [
      { threads: 0 },
      { gpuLayers: -2 },
      { gpu: 'cuda' },
      { timeoutSeconds: 0 },
      { sequences: 0 },
      { contextSize: 10 },
      { temperature: 3 },
      { nCtx: 4096 },
    ]) {
      expect(problems({ modelPath, ...bad }), JSON.stringify(bad)).to.have.lengthOf(1);
    }
    expect(llmLlamaCppPlugin.configSchema.parse({ modelPath })).to.deep.equal({
      modelPath,
      threads: 4,
      gpuLayers: 0,
      gpu: 'auto',
      timeoutSeconds: 120,
      sequences: 2,
      temperature: 0.2,
    });
  });

  it("maps DocQA's variables onto options, leaving unset ones to the defaults", () => {
    const variables: Record<string, unknown> = {
      LLM_MODEL_PATH: modelPath,
      N_CTX: 4096,
      N_THREADS: 8,
      N_GPU_LAYERS: -1,
      INFERENCE_TIMEOUT_SECONDS: 60,
      HOSTED_MODEL: 'x',
    };
    expect(llamaCppLlmOptionsFromVariables((name) => variables[name])).to.deep.equal({
      modelPath,
      contextSize: 4096,
      threads: 8,
      gpuLayers: -1,
      timeoutSeconds: 60,
    });
    expect(llamaCppLlmOptionsFromVariables(() => undefined)).to.deep.equal({});
  });

  it('fails init with a message naming the path of a file that is not a model, or not a file', async () => {
    const notAModel = join(directory, 'not-a-model.gguf');
    await writeFile(notAModel, 'this is not GGUF');
    const error = await startBackend({ modelPath: notAModel, threads: 1 }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(DocqaError).with.property('code', 'unavailable');
    expect((error as Error).message).to.include(notAModel);

    const folder = join(directory, 'folder.gguf');
    await mkdir(folder);
    const notAFile = await startBackend({ modelPath: folder }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect((notAFile as Error).message)
      .to.include(folder)
      .and.include('it is not a file');
  });

  it('stops kernel start-up when the model file is missing, naming the plugin instance and the path', async () => {
    const missing = join(directory, 'missing', 'qwen.gguf');
    const error = await startTestKernel({
      plugins: [{ plugin: llmLlamaCppPlugin, instance: 'local-llm', options: { modelPath: missing } }],
      logs: [],
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('code', 'plugin_failed');
    expect((error as Error).message)
      .to.include("plugin instance 'local-llm' (llm-llamacpp)")
      .and.include(missing)
      .and.include('no such file');
  });

  it("starts in a kernel as the LLM, and N_CTX above the model's context gives EFFECTIVE_N_CTX = the model's", async () => {
    const logs: string[] = [];
    const kernel = await startTestKernel({
      plugins: [{ plugin: llmLlamaCppPlugin, options: { modelPath, threads: 1, contextSize: 8192 } }],
      env: { N_CTX: '8192' },
      logs,
    });
    try {
      expect(kernel.effectiveNCtx).to.equal(1024);
      const llm = kernel.resolve(providerTokens.llm);
      expect((await llm.info()).contextLength).to.equal(1024);
      const pieces: string[] = [];
      for await (const piece of llm.generate(
        { messages: [{ role: 'user', content: 'through the kernel' }], maxTokens: 4, temperature: 0 },
        new AbortController().signal,
      ))
        pieces.push(piece);
      expect(pieces.join('')).to.have.lengthOf(4);
      expect(logs.join('\n')).to.include('N_CTX=8192 is above what model docqa-tiny-random-llama-64d supports');
    } finally {
      await kernel.dispose();
    }
  });
});

/** The failure of an iteration, or null when it completes. */
async function first(iterable: AsyncIterable<string>): Promise<unknown> {
  try {
    for await (const _piece of iterable) {
      // drain
    }
    return null;
  } catch (error) {
    return error;
  }
}
