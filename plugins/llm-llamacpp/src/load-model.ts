import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  getLlama,
  getLlamaGpuTypes,
  GgufFileType,
  LlamaLogLevel,
  resolveChatWrapper,
  type ChatWrapper,
  type Llama,
  type LlamaContext,
  type LlamaModel,
} from 'node-llama-cpp';
import { DocqaError, type LlmModelInfo, type Logger } from '@docqa/plugin-api';
import type { LlamaCppLlmOptions } from './config.js';

export interface LoadedChatModel {
  llama: Llama;
  model: LlamaModel;
  /** One context with `options.sequences` sequences, each of `contextSize` tokens. */
  context: LlamaContext;
  /** Formats a chat the way the model was trained to read it (from the GGUF's chat template). */
  chatWrapper: ChatWrapper;
  /** Tokens one sequence holds: the option, capped at the model's training context. */
  contextSize: number;
  info: LlmModelInfo;
  dispose(): Promise<void>;
}

/**
 * Loads llama.cpp, the model and one context, once. A failure at any step releases what the earlier
 * steps took and names the model file, so an operator knows which path to fix.
 */
export async function loadChatModel(options: LlamaCppLlmOptions, logger: Logger): Promise<LoadedChatModel> {
  const path = options.modelPath;
  const sizeBytes = await checkReadableFile(path);
  const disposers: Array<() => Promise<void>> = [];
  const dispose = async () => {
    for (const release of disposers.splice(0).reverse())
      await release().catch((error: unknown) => logger.warn({ err: error }, 'releasing the chat model failed'));
  };
  try {
    const llama = await step(path, 'load llama.cpp', () => loadLlama(options, logger));
    disposers.push(() => llama.dispose());
    const gpuLayers = llama.gpu === false ? 0 : options.gpuLayers === -1 ? 'max' : options.gpuLayers;
    const model = await step(path, 'load the model', () => llama.loadModel({ modelPath: path, gpuLayers }));
    disposers.push(() => model.dispose());

    const trained = model.trainContextSize;
    const requested = Math.min(options.contextSize ?? trained, trained);
    if (options.contextSize !== undefined && options.contextSize > trained) {
      logger.warn(
        { contextSize: options.contextSize, trained },
        `contextSize ${options.contextSize} is beyond the ${trained} tokens ` +
          `the model was trained for; using ${trained}`,
      );
    }
    const context = await step(path, 'create a context', () =>
      model.createContext({ contextSize: requested, sequences: options.sequences, threads: options.threads }),
    );
    disposers.push(() => context.dispose());
    // llama.cpp may round a small size up (never past the training context); the context's own is what counts.
    const contextSize = Math.min(context.contextSize, trained);

    const metadata = model.fileInfo.metadata;
    if (!metadata.tokenizer?.chat_template)
      logger.warn(
        { file: basename(path) },
        'the model has no chat template; node-llama-cpp guesses the chat format from its name and architecture',
      );
    // warningLogs off: node-llama-cpp would write them to the console, around DocQA's logger.
    const chatWrapper = resolveChatWrapper(model, { warningLogs: false });

    const info: LlmModelInfo = {
      backend: 'local',
      model: metadata.general?.name?.trim() || basename(path).replace(/\.gguf$/i, ''),
      contextLength: trained,
      file: basename(path),
      sizeBytes,
      ...quantizationOf(metadata.general?.file_type),
      gpu: llama.gpu !== false && model.gpuLayers > 0,
    };
    logger.info(
      {
        model: info.model,
        trainedContext: trained,
        contextSize,
        sequences: options.sequences,
        threads: options.threads,
        gpu: llama.gpu,
        gpuLayers: model.gpuLayers,
        chatFormat: chatWrapper.wrapperName,
      },
      'local chat model loaded',
    );
    return { llama, model, context, chatWrapper, contextSize, info, dispose };
  } catch (error) {
    await dispose();
    if (error instanceof DocqaError) throw error;
    throw new DocqaError('unavailable', `cannot use the chat model '${path}': ${messageOf(error)}`, { cause: error });
  }
}

/**
 * CPU unless asked for layers on a GPU and CUDA is really there: the prebuilt CUDA binary is only
 * tried then, and a failure falls back to the CPU. `build: 'never'` everywhere, so a missing binary
 * fails here instead of starting a compiler or a download.
 */
async function loadLlama(options: LlamaCppLlmOptions, logger: Logger): Promise<Llama> {
  const common = { build: 'never', logLevel: LlamaLogLevel.warn, logger: forwardTo(logger) } as const;
  if (options.gpu === 'auto' && options.gpuLayers !== 0) {
    if ((await getLlamaGpuTypes('supported')).includes('cuda')) {
      try {
        return await getLlama({ ...common, gpu: 'cuda' });
      } catch (error) {
        logger.warn({ err: error }, 'a CUDA GPU was detected but llama.cpp cannot use it; running on the CPU');
      }
    } else {
      logger.info(
        { gpuLayers: options.gpuLayers },
        'no CUDA GPU detected; gpuLayers is ignored and the model runs on the CPU',
      );
    }
  }
  return getLlama({ ...common, gpu: false });
}

/** The file's size, after checking it is a readable file: the error then says which path to fix. */
async function checkReadableFile(path: string): Promise<number> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) throw Object.assign(new Error('it is not a file'), { code: 'ENOTFILE' });
    await access(path, constants.R_OK);
    return stats.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : messageOf(error);
    throw new DocqaError(
      code === 'ENOENT' ? 'not_found' : 'unavailable',
      `cannot read the chat model file '${path}' (${reason}); set the option ` +
        'modelPath (LLM_MODEL_PATH) to a readable .gguf file',
      { cause: error },
    );
  }
}

async function step<T>(path: string, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new DocqaError('unavailable', `cannot ${what} for the chat model '${path}': ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/** `MOSTLY_Q4_K_M` → `Q4_K_M`, `ALL_F32` → `F32`: the name people know a quantization by. */
function quantizationOf(fileType: GgufFileType | undefined): { quantization?: string } {
  const name = fileType === undefined ? undefined : GgufFileType[fileType];
  return name ? { quantization: name.replace(/^(MOSTLY|ALL)_/, '') } : {};
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

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
