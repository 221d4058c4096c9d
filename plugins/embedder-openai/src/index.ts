import { definePlugin } from '@docqa/plugin-api';
import { createEmbeddingsClient, describeEndpoint } from './client.js';
import { openAiEmbedderOptionsSchema } from './config.js';
import { createOpenAiEmbeddingProvider } from './provider.js';

export { openAiEmbedderOptionsSchema, type OpenAiEmbedderOptions, type OpenAiEmbedderOptionsInput } from './config.js';

/** Embeddings from OpenAI, Azure OpenAI or any OpenAI-compatible /embeddings API. */
export default definePlugin({
  apiVersion: 1,
  kind: 'embedder',
  id: 'embedder-openai',
  description: 'Embeds texts through an OpenAI-compatible /embeddings API (OpenAI, Azure OpenAI, vLLM, ...).',
  configSchema: openAiEmbedderOptionsSchema,
  deps: {},
  init({ options, logger }) {
    const client = createEmbeddingsClient(options);
    // Logged by name, never as an object: the key must not reach the log.
    logger.info(
      {
        endpoint: describeEndpoint(options),
        model: options.model,
        dimensions: options.dimensions,
        batchSize: options.batchSize,
      },
      'embedding API configured; it is first contacted at the first embedding',
    );
    return createOpenAiEmbeddingProvider(client, options);
  },
});
