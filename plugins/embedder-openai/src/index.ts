import { definePlugin, tokens } from '@docqa/plugin-api';
import { openAiEmbedderOptionsSchema } from './config.js';

export { openAiEmbedderOptionsSchema, type OpenAiEmbedderOptions, type OpenAiEmbedderOptionsInput } from './config.js';

/** Embeddings from OpenAI, Azure OpenAI or any OpenAI-compatible /embeddings API. */
export default definePlugin({
  apiVersion: 1,
  kind: 'embedder',
  id: 'embedder-openai',
  description: 'Embeds texts through an OpenAI-compatible /embeddings API (OpenAI, Azure OpenAI, vLLM, ...).',
  configSchema: openAiEmbedderOptionsSchema,
  deps: { outbound: tokens.outbound },
  async init({ options, deps, logger }) {
    // Imported here, not above: the openai package holds about 28 MB of resident memory, which a
    // process that never configures this embedder should not pay for.
    const { createEmbeddingsClient, describeEndpoint } = await import('./client.js');
    const { createOpenAiEmbeddingProvider } = await import('./provider.js');
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
