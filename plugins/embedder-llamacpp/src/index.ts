import { basename } from 'node:path';
import { definePlugin } from '@docqa/plugin-api';
import { llamaCppEmbedderOptionsSchema } from './config.js';
import { startEmbeddingThread } from './thread-client.js';

export {
  llamaCppEmbedderDeviceFromVariables,
  llamaCppEmbedderOptionsSchema,
  type LlamaCppEmbedderOptions,
  type LlamaCppEmbedderOptionsInput,
} from './config.js';

/** Embeddings from a local GGUF model through node-llama-cpp: no network, no key, nothing downloaded. */
export default definePlugin({
  apiVersion: 1,
  kind: 'embedder',
  id: 'embedder-llamacpp',
  description: 'Embeds texts with a local GGUF embedding model (node-llama-cpp).',
  configSchema: llamaCppEmbedderOptionsSchema,
  deps: {},
  async init({ options, logger, onStop }) {
    if (options.batchSize !== undefined)
      logger.warn(
        { batchSize: options.batchSize },
        'the option batchSize has no effect any more: the embedding thread looks at the abort signal after every text',
      );
    // The model runs in a thread of its own (embedding-thread.ts says why).
    const thread = await startEmbeddingThread(
      options,
      options.modelName ?? basename(options.modelPath).replace(/\.gguf$/i, ''),
      logger,
    );
    onStop(() => thread.stop());
    const { provider } = thread;
    logger.info(
      {
        model: provider.space.model,
        dimensions: provider.space.dimensions,
        contextSize: thread.contextSize,
        maxInputTokens: provider.maxInputTokens,
        threads: options.threads,
        device: thread.device,
        gpuLayers: options.gpuLayers ?? (options.gpu === false ? 0 : 'auto'),
      },
      'local embedding model loaded',
    );
    return provider;
  },
});
