import { basename } from 'node:path';
import { definePlugin } from '@docqa/plugin-api';
import { llamaCppRerankerOptionsSchema } from './config.js';

export {
  llamaCppRerankerOptionsSchema,
  type LlamaCppRerankerOptions,
  type LlamaCppRerankerOptionsInput,
} from './config.js';

/**
 * Scores query and passage pairs with a local GGUF cross-encoder (bge-reranker, jina-reranker)
 * through node-llama-cpp's ranking support. The standard preset loads it only when
 * RAG_RERANK_ENABLED is set, so an install that does not rerank never loads a second model.
 */
export default definePlugin({
  apiVersion: 1,
  kind: 'reranker',
  id: 'reranker-llamacpp',
  description: 'Reorders search candidates with a local GGUF cross-encoder reranker (node-llama-cpp).',
  configSchema: llamaCppRerankerOptionsSchema,
  deps: {},
  async init({ options, logger, onStop }) {
    const name = options.modelName ?? basename(options.modelPath).replace(/\.gguf$/i, '');
    // node-llama-cpp loads only when reranking is on: its modules are about 38 MB of the process's
    // memory (as llm-llamacpp measured), which every server paid at import while this was static.
    const { loadRanker } = await import('./ranker.js');
    const loaded = await loadRanker(options, name, logger);
    onStop(() => loaded.dispose());
    logger.info(
      { model: name, contextSize: loaded.contextSize, threads: options.threads, device: loaded.device },
      'local reranking model loaded',
    );
    return loaded.provider;
  },
});
