import { definePlugin, tokens } from '@docqa/plugin-api';
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
  deps: { outbound: tokens.outbound },
  init({ options, deps, logger }) {
    // The endpoint comes from the operator's configuration (this plugin's options), which allows its
    // host; redirects elsewhere follow OUTBOUND_ALLOW.
    const endpoint = options.azure?.endpoint ?? options.baseUrl;
    const client = createEmbeddingsClient(options, deps.outbound.configured([endpoint]).fetch);
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
