import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { defineModule, DocqaError, tokens } from '@docqa/plugin-api';
import { writeTinyLlamaChatModel } from '@docqa/plugin-testkit';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { modelsTokens } from './contract.js';
import { createModelsModule } from './index.js';

// The chunk table as the index status counts it; in the product the documents' migrations make it.
const chunksStandIn = defineModule({
  id: 'test-chunks',
  deps: {},
  provides: {},
  migrations: [{ name: '0005_test_chunk', up: ['create table chunk (id uuid primary key)'] }],
  init: () => ({}),
});

describe('models module (without the HTTP server)', function () {
  this.timeout(120_000);
  let kernel: TestKernel;
  let modelsDir: string;

  before(async () => {
    modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-models-module-'));
    // A model "trained" for 1,024 tokens: N_CTX 4096 must be lowered to it while it is in use.
    await writeTinyLlamaChatModel(path.join(modelsDir, 'tiny-chat.gguf'), { contextLength: 1024, name: 'tiny-chat' });
    kernel = await startTestModules({
      modules: [chunksStandIn, createModelsModule({ pollSeconds: 0.2, retireGraceMs: 10 })],
      env: { MODELS_DIR: modelsDir, N_CTX: '4096', N_THREADS: '1' },
    });
  });
  after(async () => {
    await kernel?.dispose();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('starts on the configuration: no switched chat model, no embedder, N_CTX as configured', async () => {
    const current = kernel.resolve(modelsTokens.current);
    expect(current.switchedChatBackend()).to.equal(null);
    expect(current.embedder()).to.equal(null);
    expect(kernel.resolve(tokens.contextWindow).get()).to.equal(4096);
    expect(await kernel.resolve(modelsTokens.indexStatus).read()).to.deep.equal({
      chunks: 0,
      embedded_chunks: 0,
      stale: false,
      embedding_space: null,
    });
  });

  it('switches the chat model at run time, lowers the context window to its limit, and switches back', async () => {
    const runtime = kernel.resolve(modelsTokens.runtime);
    const current = kernel.resolve(modelsTokens.current);
    const outcome = await runtime.use('tiny-chat', { actor: 'ada' });
    expect(outcome).to.include({ purpose: 'chat', previous: null });
    expect(current.switchedChatBackend()).to.not.equal(null);
    expect(kernel.resolve(tokens.contextWindow).get()).to.equal(1024);
    expect(await runtime.details('chat')).to.include({ source: 'switched', file: 'tiny-chat.gguf' });
    const { rows } = await kernel.db.query<{ name: string; updated_by: string }>(
      'select name, updated_by from active_model',
    );
    expect(rows).to.deep.equal([{ name: 'tiny-chat', updated_by: 'ada' }]);

    await runtime.use(null, { purpose: 'chat' });
    expect(current.switchedChatBackend()).to.equal(null);
    expect(kernel.resolve(tokens.contextWindow).get()).to.equal(4096);
    expect((await kernel.db.query('select 1 from active_model')).rows).to.have.length(0);
  });

  it('follows a choice another replica stored, by polling the table', async () => {
    await kernel.db.query(
      `insert into active_model (purpose, name, file) values ('chat', 'tiny-chat', 'tiny-chat.gguf')`,
    );
    const current = kernel.resolve(modelsTokens.current);
    const deadline = Date.now() + 60_000;
    while (current.switchedChatBackend() === null) {
      if (Date.now() > deadline) throw new Error('the switch was not picked up');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await kernel.db.query('delete from active_model');
    while (current.switchedChatBackend() !== null) {
      if (Date.now() > deadline) throw new Error('the return to the configured model was not picked up');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('refuses an unknown model with not_found and changes nothing', async () => {
    const error = await kernel
      .resolve(modelsTokens.runtime)
      .use('no-such-model')
      .catch((caught: unknown) => caught);
    expect(DocqaError.is(error, 'not_found')).to.equal(true);
    expect(kernel.resolve(modelsTokens.current).switchedChatBackend()).to.equal(null);
  });
});
