import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { writeTinyLlamaChatModel } from '@docqa/plugin-testkit';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';
import { chatStream } from '../testing/sse.test-support.js';

/** The tiny generated model's own window: N_CTX asks for more, so EFFECTIVE_N_CTX must come down to it. */
const modelContext = 1024;

describe('chat with a local GGUF model (LLM_BACKEND=local, tiny random llama)', function () {
  this.timeout(120_000);
  let modelDir: string;
  let t: SearchTestServer;

  before(async () => {
    modelDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-chat-local-'));
    const model = await writeTinyLlamaChatModel(path.join(modelDir, 'tiny-chat.gguf'), { contextLength: modelContext });
    t = await startSearchServer({
      plan: 'FREE',
      embedder: false,
      env: { LLM_MODEL_PATH: model.path, N_CTX: '8192', N_THREADS: '1' },
    });
    // The tiny model's tokenizer spends a token per byte: six such passages cannot all fit in 1024.
    await t.uploadTexts(
      Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [
          `policy-${i}.txt`,
          `Expense policy part ${i}. ${'Receipts for travel expenses are submitted within thirty days. '.repeat(4)}`,
        ]),
      ),
    );
  });
  after(async () => {
    await t?.stop();
    fs.rmSync(modelDir, { recursive: true, force: true });
  });

  it("takes the model's context as EFFECTIVE_N_CTX when N_CTX asks for more, and says so in model-info", async () => {
    const info = await t.call('GET', '/api/model-info', t.admin);
    expect(info.status).to.equal(200);
    expect(info.body).to.include({
      backend: 'local',
      configured_backend: 'local',
      model: 'docqa-tiny-random-llama-64d',
      generative: true,
      exact_token_count: true,
      context_length: modelContext,
      n_ctx: 8192,
      effective_n_ctx: modelContext,
      gpu: false,
    });
    const settings = await t.call('GET', '/api/admin/settings', t.admin);
    expect(settings.body.derived).to.deep.equal({ EFFECTIVE_N_CTX: modelContext });
  });

  it("answers with generated text, trimming passages to the model's window counted with its own tokenizer", async () => {
    const res = await t.call('POST', '/api/chat', t.admin, {
      query: 'How soon are travel receipts submitted?',
      top_k: 6,
    });
    expect(res.status).to.equal(200);
    expect(res.body.answer).to.be.a('string').and.not.equal('');
    const budget = res.body.token_budget;
    expect(budget).to.include({ limit: modelContext, reserved_completion: modelContext / 4 });
    expect(budget.chunks_dropped).to.be.greaterThan(0);
    expect(res.body.sources.length + budget.chunks_dropped).to.equal(6);
    expect(budget.estimated_prompt).to.be.at.most(modelContext - budget.reserved_completion);
  });

  it('streams generated pieces and ends with done', async () => {
    const { status, events } = await chatStream(t.server.url, t.admin, { query: 'expense receipts', top_k: 2 });
    expect(status).to.equal(200);
    expect(events.filter((event) => event.type === 'delta').length).to.be.greaterThan(0);
    expect(events.at(-1)?.type).to.equal('done');
  });
});
