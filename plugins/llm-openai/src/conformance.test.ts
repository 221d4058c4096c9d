import { describeLlmConformance, startChatCompletionsServer } from '@docqa/plugin-testkit';
import { apiKey, model, startBackend } from './backend.test-support.js';

const maxRetries = 2;

describeLlmConformance('llm-openai (loopback OpenAI-compatible server)', {
  async start() {
    const server = await startChatCompletionsServer({ apiKey, tokenDelayMs: 5 });
    // The default retries stay on, so a failure must outlast them to reach the caller.
    const backend = await startBackend({ baseUrl: server.baseUrl, apiKey, model, maxRetries });
    return { backend, failNextRequest: () => server.failNext(500, maxRetries + 1), dispose: () => server.close() };
  },
});
