import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { getLlama, LlamaLogLevel, type Llama, type LlamaEmbeddingContext, type LlamaModel } from 'node-llama-cpp';
import type { Logger } from '@docqa/plugin-api';
import { DocqaError } from '@docqa/plugin-api/errors';
import type { LlamaCppEmbedderOptions } from './config.js';

export interface LoadedEmbeddingModel {
  llama: Llama;
  model: LlamaModel;
  context: LlamaEmbeddingContext;
  /** The context size actually used (the option, capped at the model's training context). */
  contextSize: number;
  /** Where the model computes: `cpu`, or the GPU backend holding its layers (`cuda`, `vulkan`, `metal`). */
  device: string;
  dispose(): Promise<void>;
}

/**
 * Loads llama.cpp, the model and one embedding context, once. A failure at any step releases what
 * the earlier steps took and names the model file, so an operator knows which path to fix.
 */
export async function loadEmbeddingModel(
  options: LlamaCppEmbedderOptions,
  logger: Logger,
): Promise<LoadedEmbeddingModel> {
  const path = options.modelPath;
  await checkReadableFile(path);
  const disposers: Array<() => Promise<void>> = [];
  const dispose = async () => {
    for (const release of disposers.splice(0).reverse())
      await release().catch((error: unknown) => logger.warn({ err: error }, 'releasing the embedding model failed'));
  };
  try {
    const llama = await loadLlama(options, logger);
    disposers.push(() => llama.dispose());
    const gpuLayers =
      llama.gpu === false ? 0 : options.gpuLayers === -1 ? 'max' : (options.gpuLayers ?? ('auto' as const));
    const model = await step(path, 'load the model', () => llama.loadModel({ modelPath: path, gpuLayers }));
    disposers.push(() => model.dispose());
    const device = llama.gpu === false || model.gpuLayers === 0 ? 'cpu' : llama.gpu;
    if (model.embeddingVectorSize <= 0) throw new Error('the model answers no embedding vectors');

    const trained = model.trainContextSize;
    const contextSize = Math.min(options.contextSize ?? trained, trained);
    if (options.contextSize !== undefined && options.contextSize > trained) {
      logger.warn(
        { contextSize: options.contextSize, trained },
        "contextSize is beyond what the model was trained for; using the model's",
      );
    }
    const context = await step(path, 'create an embedding context', () =>
      // An encoder model must see a whole input in one batch, so the batch is the context.
      model.createEmbeddingContext({ contextSize, batchSize: contextSize, threads: options.threads }),
    );
    disposers.push(() => context.dispose());
    return { llama, model, context, contextSize, device, dispose };
  } catch (error) {
    await dispose();
    if (error instanceof DocqaError) throw error;
    throw new DocqaError('unavailable', `cannot use the embedding model '${path}': ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * llama.cpp with the device asked for. build 'never': a missing binary must fail here, not start a
 * compiler or a download. Errors only: llama.cpp warns on every embedding call ("embeddings
 * required but some input tokens were not marked as outputs"), which would flood the log.
 * 'cuda' is a demand: without a usable CUDA GPU start-up fails saying so, since an operator who
 * asked for it would otherwise not notice that embeddings run many times slower ('auto' falls back).
 */
async function loadLlama(options: LlamaCppEmbedderOptions, logger: Logger): Promise<Llama> {
  const common = { build: 'never', logLevel: LlamaLogLevel.error, logger: forwardTo(logger) } as const;
  try {
    return await getLlama({ ...common, gpu: options.gpu });
  } catch (error) {
    if (options.gpu === 'cuda')
      throw new DocqaError(
        'unavailable',
        `the embedding device is cuda (EMBED_DEVICE=cuda) but llama.cpp cannot use a CUDA GPU on this machine ` +
          `(${messageOf(error)}); set EMBED_DEVICE=auto to use a GPU when there is one and the CPU otherwise, or cpu`,
        { cause: error },
      );
    throw new DocqaError(
      'unavailable',
      `cannot load llama.cpp for the embedding model '${options.modelPath}': ${messageOf(error)}`,
      { cause: error },
    );
  }
}

async function checkReadableFile(path: string): Promise<void> {
  try {
    if (!(await stat(path)).isFile()) throw Object.assign(new Error('it is not a file'), { code: 'ENOTFILE' });
    await access(path, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : messageOf(error);
    throw new DocqaError(
      code === 'ENOENT' ? 'not_found' : 'unavailable',
      `cannot read the embedding model file '${path}' (${reason}); set the option modelPath to a readable .gguf file`,
      { cause: error },
    );
  }
}

async function step<T>(path: string, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new DocqaError('unavailable', `cannot ${what} for the embedding model '${path}': ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/** llama.cpp's own log goes to DocQA's logger rather than straight to stderr. */
function forwardTo(logger: Logger): (level: LlamaLogLevel, message: string) => void {
  return (level, message) => {
    const text = message.trim();
    if (!text) return;
    if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal) logger.error({ source: 'llama.cpp' }, text);
    else if (level === LlamaLogLevel.warn) logger.warn({ source: 'llama.cpp' }, text);
    else logger.debug({ source: 'llama.cpp' }, text);
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
