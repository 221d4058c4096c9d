import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { writeGguf } from '@docqa/plugin-testkit';
import { runModels } from '../cli/models.js';
import {
  createModelFixtures,
  startModelsServer,
  type ModelFixtures,
  writeActiveModel,
  type ModelsTestServer,
} from './models.test-support.js';

describe('local models: switching without a restart (POST /api/models/use, docqa models use)', function () {
  this.timeout(120_000);
  let fixtures: ModelFixtures;
  let t: ModelsTestServer;
  let chunks: number;

  before(async () => {
    fixtures = await createModelFixtures();
    t = await startModelsServer(fixtures);
    // Six passages of ~280 bytes and a ~450-token prompt: the byte-level tiny models cannot take them all.
    await t.uploadTexts(
      Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [
          `policy-${i}.txt`,
          `Expense policy part ${i}. ${'Receipts for travel expenses are submitted within thirty days. '.repeat(4)}`,
        ]),
      ),
    );
    for (const name of ['tiny-chat-a', 'tiny-chat-b'])
      expect(
        (await t.waitForJob((await t.call('POST', '/api/models/pull', t.admin, { name })).body.job_id)).status,
      ).to.equal('succeeded');
    chunks = (await t.call('GET', '/api/index/stats', t.admin)).body.chunks;
  });
  after(async () => {
    await t?.stop();
    await fixtures?.close();
  });

  const modelInfo = async () => (await t.call('GET', '/api/model-info', t.admin)).body;
  const chat = async () =>
    t.call('POST', '/api/chat', t.admin, { query: 'How soon are travel receipts submitted?', top_k: 6 });
  const cli = async (argv: string[], env: Record<string, string>) => {
    const lines: string[] = [];
    const code = await runModels(argv, {
      cwd: fixtures.dir,
      env: { MODELS_DIR: t.modelsDir, MODELS_CATALOGUE: fixtures.cataloguePath, DOCQA_URL: t.server.url, ...env },
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
    });
    return { code, output: lines.join('\n') };
  };

  it('switches the chat model of the running service; the next chat and model-info use it', async () => {
    expect((await chat()).body.token_budget).to.equal(null); // extractive: 8192 estimated tokens hold everything

    const res = await t.call('POST', '/api/models/use', t.admin, { name: 'tiny-chat-b' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      purpose: 'chat',
      name: 'tiny-chat-b',
      previous: null,
      effective_n_ctx: 1024,
      rebuild_job_id: null,
    });
    const info = await modelInfo();
    expect(info).to.include({
      backend: 'local',
      model: 'docqa-tiny-chat-b',
      generative: true,
      exact_token_count: true,
      file: 'tiny-chat-b.gguf',
      quantization: 'F32',
      license: 'MIT',
      context_length: 1024,
      n_ctx: 8192,
      effective_n_ctx: 1024,
      gpu: false,
      switched: true,
    });
    expect(info.size_bytes).to.equal(fs.statSync(fixtures.sources['tiny-chat-b']!).size);
    expect(info).not.to.have.property('note');

    // The window is the new model's and the passages were counted with its tokenizer.
    const answered = await chat();
    expect(answered.status, JSON.stringify(answered.body)).to.equal(200);
    expect(answered.body.answer).to.be.a('string').and.not.equal('');
    expect(answered.body.token_budget).to.include({ limit: 1024, reserved_completion: 256 });
    expect(answered.body.token_budget.chunks_dropped).to.be.greaterThan(0);
  });

  it('docqa models use switches through the HTTP API, with a token or a username and password', async () => {
    const withToken = await cli(['use', 'tiny-chat-a'], { DOCQA_TOKEN: t.admin });
    expect(withToken).to.deep.include({ code: 0 });
    expect(withToken.output)
      .to.include('The chat model is now tiny-chat-a (was tiny-chat-b)')
      .and.include('EFFECTIVE_N_CTX is 2048');
    expect(await modelInfo()).to.include({ model: 'docqa-tiny-chat-a', effective_n_ctx: 2048, license: 'Apache-2.0' });
    expect((await chat()).body.token_budget).to.include({ limit: 2048 });

    const listed = await cli(['list'], { DOCQA_TOKEN: t.admin });
    expect(listed.output).to.match(/chat {6}tiny-chat-a \(docqa models use\)/);
    const refused = await cli(['rm', 'tiny-chat-a'], { DOCQA_TOKEN: t.admin });
    expect(refused.code).to.equal(1);
    expect(refused.output).to.include('is the chat model in use');

    const reset = await cli(['use', '--reset', 'chat'], {
      DOCQA_USERNAME: 'admin',
      DOCQA_PASSWORD: 'admin-password-1',
    });
    expect(reset.output).to.include('The chat model is the configured one again.');
    expect(await modelInfo()).to.include({ backend: 'extractive', effective_n_ctx: 8192, switched: false });

    const anonymous = await cli(['use', 'tiny-chat-a'], {});
    expect(anonymous.code).to.equal(2);
    expect(anonymous.output).to.include('set DOCQA_TOKEN');
  });

  it('picks up a choice another replica stored within seconds (the table is polled)', async () => {
    await writeActiveModel(t.server, 'chat', { name: 'tiny-chat-a', file: 'tiny-chat-a.gguf' }, 'another-replica');
    // The poll runs every 0.2 s here; the rest is loading the model, which a busy machine slows a lot.
    const deadline = Date.now() + 30_000;
    while ((await modelInfo()).model !== 'docqa-tiny-chat-a') {
      if (Date.now() > deadline) throw new Error('the switch was not picked up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await chat()).body.answer).to.be.a('string');
    await writeActiveModel(t.server, 'chat', null, 'another-replica');
    while ((await modelInfo()).backend !== 'extractive') await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it('a model that cannot be loaded changes nothing', async () => {
    const broken = path.join(fixtures.dir, 'source', 'header-only.gguf');
    await writeGguf(broken, {
      metadata: {
        'general.architecture': { type: 'string', value: 'llama' },
        'llama.context_length': { type: 'uint32', value: 256 },
      },
      tensors: [],
    });
    expect((await cli(['import', broken], {})).code).to.equal(0);
    const res = await t.call('POST', '/api/models/use', t.admin, { name: 'header-only' });
    expect(res.status).to.equal(503);
    expect(res.body.detail).to.include('header-only.gguf');
    expect(await modelInfo()).to.include({ backend: 'extractive' });
    expect((await t.call('GET', '/api/models', t.admin)).body.active.chat).to.equal(null);
  });

  it('an unknown model answers 404 without naming a directory of the server', async () => {
    const res = await t.call('POST', '/api/models/use', t.admin, { name: 'never-installed' });
    expect([res.status, res.body.code]).to.deep.equal([404, 'not_found']);
    expect(res.body.detail)
      .to.not.include(fixtures.dir)
      .and.to.not.match(/\/(tmp|data|models)\//);
  });

  it('switching the embedding model marks the index stale, re-embeds on request, and never mixes dimensions', async () => {
    const imported = await cli(['import', fixtures.sources['tiny-bert-48']!, '--link'], {});
    expect(imported.output).to.include('Imported tiny-bert-48 (embedding, bert');
    expect((await t.call('GET', '/api/index/stats', t.admin)).body).to.include({ embedded_chunks: chunks });

    const res = await t.call('POST', '/api/models/use', t.admin, { name: 'tiny-bert-48' });
    expect(res.body).to.deep.include({
      purpose: 'embedding',
      name: 'tiny-bert-48',
      previous: null,
      rebuild_job_id: null,
      index: { chunks, embedded_chunks: 0, stale: true, embedding_space: { model: 'tiny-bert-48', dimensions: 48 } },
    });
    expect((await modelInfo()).embedding).to.deep.equal({
      model: 'tiny-bert-48',
      dimensions: 48,
      source: 'switched',
      file: 'tiny-bert-48.gguf',
      size_bytes: fs.statSync(fixtures.sources['tiny-bert-48']!).size,
      quantization: 'F32',
      context_length: 512,
      license: 'Apache-2.0',
      // EMBED_DEVICE=auto on a machine without a GPU llama.cpp can use.
      device: 'cpu',
      gpu: false,
    });
    // The old vectors stay in their own space, unused; search keeps answering (lexically).
    const stale = await t.call('GET', '/api/index/stats', t.admin);
    expect(stale.body.embedded_chunks).to.equal(0);
    expect(stale.body.embedding_spaces).to.deep.equal([{ model: 'tiny-embedder', dimensions: 32, count: chunks }]);
    expect(
      (await t.call('POST', '/api/search', t.admin, { query: 'travel receipts', top_k: 3 })).body.items,
    ).to.have.lengthOf(3);

    const reembed = await t.call('POST', '/api/models/use', t.admin, { name: 'tiny-bert-48', reembed: true });
    expect(reembed.body.rebuild_job_id).to.be.a('string');
    expect((await t.waitForJob(reembed.body.rebuild_job_id)).status).to.equal('succeeded');
    const models = (await t.call('GET', '/api/models', t.admin)).body;
    expect(models.index).to.deep.equal({
      chunks,
      embedded_chunks: chunks,
      stale: false,
      embedding_space: { model: 'tiny-bert-48', dimensions: 48 },
    });
    expect((await t.call('GET', '/api/index/stats', t.admin)).body.embedding_spaces).to.deep.equal([
      { model: 'tiny-bert-48', dimensions: 48, count: chunks },
    ]);
    expect(
      (await t.call('POST', '/api/search', t.admin, { query: 'travel receipts', top_k: 3 })).body.retrieval_settings
        .mode,
    ).to.equal('hybrid');

    // Back to the configured 32-dimension model: its vectors were replaced, so the index is stale again.
    const back = await t.call('POST', '/api/models/use', t.admin, { name: null, purpose: 'embedding' });
    expect(back.body.index).to.include({ embedded_chunks: 0, stale: true });
    expect((await modelInfo()).embedding).to.include({ model: 'tiny-embedder', dimensions: 32, source: 'configured' });
  });
});
