import { definePlugin } from '@docqa/plugin-api';
import { llamaCppLlmOptionsSchema } from './config.js';

export {
  llamaCppLlmOptionsSchema,
  llamaCppLlmOptionsFromVariables,
  type LlamaCppLlmOptions,
  type LlamaCppLlmOptionsInput,
} from './config.js';

/**
 * Chat answers from a local GGUF model through node-llama-cpp
 * (LLM_BACKEND=local): no network, no key, nothing downloaded.
 */
export default definePlugin({
  apiVersion: 1,
  kind: 'llm',
  id: 'llm-llamacpp',
  description: 'Answers chats with a local GGUF chat model (node-llama-cpp).',
  configSchema: llamaCppLlmOptionsSchema,
  deps: {},
  async init({ options, logger, onStop }) {
    // node-llama-cpp loads only when a local chat model is configured: its modules alone are about
    // 38 MB of a process's memory (measured), which a server answering through another backend spares.
    const [{ loadChatModel }, { createLlamaCppLlmBackend }] = await Promise.all([
      import('./load-model.js'),
      import('./provider.js'),
    ]);
    const loaded = await loadChatModel(options, logger);
    try {
      const backend = createLlamaCppLlmBackend(loaded, options, logger);
      // One hook, in order: no generation may still hold a sequence when the context goes.
      onStop(async () => {
        await backend.close();
        await loaded.dispose();
      });
      return backend;
    } catch (error) {
      await loaded.dispose();
      throw error;
    }
  },
});
