import { expect } from 'chai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { inferenceServerApiKey } from '../presets/standard.js';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

/** The kernel's log lines that say N_CTX was lowered. */
const cappedWarnings = (logs: string[]) =>
  logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['model_context'] !== undefined);

describe('EFFECTIVE_N_CTX from what a model server reports (issue 29, item 2)', function () {
  this.timeout(120_000);

  describe('the inference server at INFERENCE_URL (LLM_BACKEND=local)', () => {
    let inference: ChatCompletionsServer;
    let t: SearchTestServer;
    const logs: string[] = [];

    before(async () => {
      // A llama.cpp server started with --ctx-size 2048 on a model trained for 32768 tokens.
      inference = await startChatCompletionsServer({
        apiKey: inferenceServerApiKey,
        llamaCpp: { path: '/models/qwen2.5-1.5b-instruct-q4_k_m.gguf', nCtx: 2048, nCtxTrain: 32_768 },
      });
      t = await startSearchServer({
        plan: 'FREE',
        embedder: false,
        env: { LLM_BACKEND: 'local', INFERENCE_URL: inference.origin, N_CTX: '8192', LOG_LEVEL: 'WARNING' },
        server: { logDestination: { write: (line: string) => void logs.push(line) } },
      });
    });
    after(async () => {
      await t?.stop();
      await inference?.close();
    });

    it("caps N_CTX at the server's context with a warning, and model-info names the local backend", async () => {
      expect(inference.requests.map((request) => request.path)).to.include('/props');
      const warnings = cappedWarnings(logs);
      expect(warnings, 'one warning at start').to.have.lengthOf(1);
      expect(warnings[0]).to.include({ level: 'warn', n_ctx: 8192, model_context: 2048 });

      const info = await t.call('GET', '/api/model-info', t.admin);
      expect(info.status).to.equal(200);
      expect(info.body).to.include({
        backend: 'local',
        configured_backend: 'local',
        model: 'qwen2.5-1.5b-instruct-q4_k_m',
        context_length: 2048,
        n_ctx: 8192,
        effective_n_ctx: 2048,
        endpoint: `${inference.origin}/v1`,
      });
    });
  });

  describe('a hosted API that publishes its context (vLLM: max_model_len)', () => {
    let llm: ChatCompletionsServer;
    let t: SearchTestServer;

    before(async () => {
      llm = await startChatCompletionsServer({ apiKey: 'sk-hosted-context', contextLength: 3000 });
      t = await startSearchServer({
        plan: 'FREE',
        embedder: false,
        env: {
          LLM_BACKEND: 'hosted',
          HOSTED_API_KEY: 'sk-hosted-context',
          HOSTED_MODEL: 'docqa-test-chat',
          HOSTED_BASE_URL: llm.baseUrl,
          N_CTX: '8192',
        },
      });
    });
    after(async () => {
      await t?.stop();
      await llm?.close();
    });

    it('takes the published context as EFFECTIVE_N_CTX', async () => {
      const info = await t.call('GET', '/api/model-info', t.admin);
      expect(info.body).to.include({ backend: 'hosted', context_length: 3000, n_ctx: 8192, effective_n_ctx: 3000 });
    });
  });
});
