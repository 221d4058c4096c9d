import { definePlugin, tokens } from '@docqa/plugin-api';
import { llmOpenAiOptionsSchema } from './config.js';

export {
  llmOpenAiOptionsSchema,
  llmOpenAiOptionsFromVariables,
  type LlmOpenAiOptions,
  type LlmOpenAiOptionsInput,
} from './config.js';

/** Answers from OpenAI, Azure OpenAI or any OpenAI-compatible chat-completions API (LLM_BACKEND=hosted). */
export default definePlugin({
  apiVersion: 1,
  kind: 'llm',
  id: 'llm-openai',
  description:
    'Generates answers through an OpenAI-compatible chat-completions API (OpenAI, Azure OpenAI, vLLM, ...), streamed.',
  configSchema: llmOpenAiOptionsSchema,
  deps: { outbound: tokens.outbound },
  async init({ options, deps, logger, onStop }) {
    // Imported here, not above: the openai package holds about 28 MB of resident memory, which a
    // process that never configures this backend should not pay for.
    const { createChatClient, endpointOf, modelOf } = await import('./client.js');
    const { createOpenAiLlmBackend } = await import('./generate.js');
    const { ServerModelWatch } = await import('./model-watch.js');
    // The endpoint comes from the operator's configuration (HOSTED_BASE_URL, INFERENCE_URL or this
    // plugin's options), which allows its host; redirects elsewhere follow OUTBOUND_ALLOW.
    const fetch = deps.outbound.configured([endpointOf(options)]).fetch;
    const client = createChatClient(options, fetch);
    let watch: InstanceType<typeof ServerModelWatch> | null = null;
    if (options.discoverContext && !options.azure) {
      watch = new ServerModelWatch(fetch, options, endpointOf(options), logger);
      await watch.read();
      watch.start(options.contextPollSeconds ?? 0);
      const started = watch;
      onStop(() => started.stop());
    }
    // Logged by name, never as an object: the key must not reach the log.
    logger.info(
      {
        endpoint: endpointOf(options),
        model: modelOf(options),
        azure: options.azure !== undefined,
        timeoutSeconds: options.timeoutSeconds,
        maxRetries: options.maxRetries,
        contextLength: watch?.known.contextLength ?? options.contextLength ?? null,
      },
      watch
        ? 'LLM API configured; its model metadata was asked for'
        : 'hosted LLM API configured; it is first contacted at the first answer',
    );
    return createOpenAiLlmBackend(client, options, logger, watch);
  },
});
