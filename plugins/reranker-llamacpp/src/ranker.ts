import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel, type LlamaRankingContext } from 'node-llama-cpp';
import { DocqaError, type Logger, type RerankerProvider } from '@docqa/plugin-api';
import type { LlamaCppRerankerOptions } from './config.js';

/**
 * Texts ranked between two looks at the abort signal. node-llama-cpp evaluates one pair at a time
 * anyway (one sequence, under a lock), so small batches cost nothing and a cancelled search stops
 * within a few pairs instead of after all the candidates.
 */
const textsPerBatch = 4;
/** At most this share of the context goes to the query, so that a long question leaves room for the passage. */
const queryShareOfContext = 0.25;

export interface LoadedRanker {
  provider: RerankerProvider;
  contextSize: number;
  device: string;
  dispose(): Promise<void>;
}

/**
 * Loads llama.cpp, the model and one ranking context. On the server's thread, unlike the embedder:
 * a search ranks a few dozen short pairs, and ingestion never ranks, so there is no long batch for
 * it to hold up. A failure names the model file and releases what was loaded.
 */
export async function loadRanker(
  options: LlamaCppRerankerOptions,
  name: string,
  logger: Logger,
): Promise<LoadedRanker> {
  const path = options.modelPath;
  await access(path, constants.R_OK).catch((error: NodeJS.ErrnoException) => {
    throw new DocqaError(
      error.code === 'ENOENT' ? 'not_found' : 'unavailable',
      `cannot read the reranking model file '${path}' (${error.code ?? error.message}); ` +
        'set RAG_RERANK_MODEL to a catalogue name or a .gguf file in MODELS_DIR',
      { cause: error },
    );
  });
  const disposers: Array<() => Promise<void>> = [];
  const dispose = async () => {
    for (const release of disposers.splice(0).reverse())
      await release().catch((error: unknown) => logger.warn({ err: error }, 'releasing the reranking model failed'));
  };
  try {
    const llama: Llama = await getLlama({
      build: 'never',
      gpu: options.gpu,
      logLevel: LlamaLogLevel.error,
      logger: (level, message) => {
        if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal)
          logger.error({ source: 'llama.cpp' }, message.trim());
      },
    });
    disposers.push(() => llama.dispose());
    const model: LlamaModel = await llama.loadModel({ modelPath: path, gpuLayers: llama.gpu === false ? 0 : 'auto' });
    disposers.push(() => model.dispose());
    if (!model.fileInsights.supportsRanking)
      throw new Error('it has no ranking head (cls.weight or cls.output.weight): it is not a cross-encoder reranker');
    const contextSize = Math.min(options.contextSize ?? model.trainContextSize, model.trainContextSize);
    // An encoder sees a whole pair in one batch, so the batch is the context.
    const context = await model.createRankingContext({ contextSize, batchSize: contextSize, threads: options.threads });
    disposers.push(() => context.dispose());
    const device = llama.gpu === false || model.gpuLayers === 0 ? 'cpu' : llama.gpu;
    return { provider: rankerOf(name, model, context), contextSize: context.contextSize, device, dispose };
  } catch (error) {
    await dispose();
    if (error instanceof DocqaError) throw error;
    throw new DocqaError(
      'unavailable',
      `cannot use the reranking model '${path}': ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

function rankerOf(name: string, model: LlamaModel, context: LlamaRankingContext): RerankerProvider {
  const maxQueryTokens = Math.max(1, Math.floor(context.contextSize * queryShareOfContext));
  return {
    model: name,
    async rank(query, texts, signal) {
      signal?.throwIfAborted();
      if (texts.length === 0) return [];
      const queryTokens = model.tokenize(query, false, 'trimLeadingSpace').slice(0, maxQueryTokens);
      const scores: number[] = [];
      for (let start = 0; start < texts.length; start += textsPerBatch) {
        const batch = texts.slice(start, start + textsPerBatch);
        // A passage longer than the context is ranked in overlapping pieces; its best piece counts.
        scores.push(...(await context.rankAll(queryTokens, batch, { onOverflow: 'maxChunk' })));
        signal?.throwIfAborted();
      }
      return scores;
    },
  };
}
