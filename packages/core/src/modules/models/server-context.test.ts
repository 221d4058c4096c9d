import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { tokens } from '@docqa/plugin-api';
import llmOpenai from '@docqa/plugin-llm-openai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { createModelsModule } from './index.js';

/** Waits until `read` answers `expected`, polling; fails after `timeoutMs`. */
async function eventually<T>(read: () => T, expected: T, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (read() !== expected) {
    if (Date.now() > deadline) expect(read()).to.equal(expected);
    await sleep(50);
  }
}

describe('models module: EFFECTIVE_N_CTX follows the inference server (issue 29, item 2)', function () {
  this.timeout(60_000);
  let inference: ChatCompletionsServer;
  let kernel: TestKernel;
  const logs: string[] = [];

  before(async () => {
    // The server is still loading its model when DocQA starts, as in the compose stack.
    inference = await startChatCompletionsServer({
      apiKey: 'no-key',
      llamaCpp: { path: '/models/first.gguf', nCtx: 2048, nCtxTrain: 32_768, loading: true },
    });
    kernel = await startTestModules({
      modules: [createModelsModule({ pollSeconds: 0.2 })],
      plugins: [
        {
          plugin: llmOpenai,
          options: {
            baseUrl: inference.baseUrl,
            apiKey: 'no-key',
            model: 'local',
            backend: 'local',
            discoverContext: true,
            contextPollSeconds: 1,
          },
        },
      ],
      env: { N_CTX: '4096', LOG_LEVEL: 'WARNING' },
      logs,
    });
  });
  after(async () => {
    await kernel?.dispose();
    await inference?.close();
  });

  it('starts on N_CTX while the server loads, lowers it once it answers, and after a model change', async () => {
    const contextWindow = kernel.resolve(tokens.contextWindow);
    expect(contextWindow.get()).to.equal(4096);

    inference.llamaCpp = { path: '/models/first.gguf', nCtx: 2048, nCtxTrain: 32_768 };
    await eventually(() => contextWindow.get(), 2048);
    // The server restarted with another model and a smaller --ctx-size.
    inference.llamaCpp = { path: '/models/second.gguf', nCtx: 1024, nCtxTrain: 8192 };
    await eventually(() => contextWindow.get(), 1024);
    // Back to a context above N_CTX: N_CTX applies again.
    inference.llamaCpp = { path: '/models/third.gguf', nCtx: 16_384, nCtxTrain: 32_768 };
    await eventually(() => contextWindow.get(), 4096);

    const warned = logs.filter((line) => line.includes('"model_context"')).map((line) => JSON.parse(line));
    expect(warned.map((line) => line.model_context)).to.deep.equal([2048, 1024]);
  });
});
