import { basename } from 'node:path';
import { definePlugin } from '@docqa/plugin-api';
import { llamaCppEmbedderOptionsSchema } from './config.js';
import { loadEmbeddingModel } from './load-model.js';
import { createLlamaCppEmbeddingProvider } from './provider.js';

export { llamaCppEmbedderOptionsSchema, type LlamaCppEmbedderOptions, type LlamaCppEmbedderOptionsInput } from './config.js';

/** Embeddings from a local GGUF model through node-llama-cpp: no network, no key, nothing downloaded. */
export default definePlugin({
  apiVersion: 1,
  kind: 'embedder',
  id: 'embedder-llamacpp',
  description: 'Embeds texts with a local GGUF embedding model (node-llama-cpp).',
  configSchema: llamaCppEmbedderOptionsSchema,
  deps: {},
  async init({ options, logger, onStop }) {
    const loaded = await loadEmbeddingModel(options, logger);
    onStop(() => loaded.dispose());
    try {
      const space = { model: options.modelName ?? basename(options.modelPath).replace(/\.gguf$/i, ''), dimensions: loaded.model.embeddingVectorSize };
      const provider = createLlamaCppEmbeddingProvider(loaded, space, options.batchSize);
      logger.info(
        { model: space.model, dimensions: space.dimensions, contextSize: loaded.contextSize, maxInputTokens: provider.maxInputTokens, threads: options.threads, gpu: loaded.llama.gpu },
        'local embedding model loaded',
      );
      return provider;
    } catch (error) {
      await loaded.dispose();
      throw error;
    }
  },
});
