import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Logger } from '@docqa/plugin-api';
import { writeTinyBertRerankerModel } from '@docqa/plugin-testkit';
import rerankerLlamacpp from '@docqa/plugin-reranker-llamacpp';
import { startSearchServer, type Json, type SearchTestServer } from '../testing/search-server.test-support.js';

const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quietLogger };

// Each passage says "invoice" once more than the one before, so BM25's order is fixed (no ties
// whose order could change between servers) and the cross-encoder's order can be told from it.
const documents = {
  'one.txt': 'An invoice is archived for ten years in the finance archive.',
  'two.txt': 'An invoice above 5000 euros needs invoice approval by a second manager.',
  'three.txt': 'Suppliers are paid thirty days after the invoice date, invoice copies and invoice scans are kept.',
  'four.txt': 'Send every invoice as a PDF: invoice scans, invoice photos and invoice images are refused.',
  'five.txt': 'invoice reminders: an invoice, invoice, invoice or invoice unpaid after sixty days gets one.',
  'six.txt': 'invoice questions: invoice, invoice, invoice, invoice and invoice go to accounts payable.',
};
const query = 'How is an invoice handled?';
const topK = 3;

describe('search and chat with cross-encoder reranking (RAG_RERANK_ENABLED, tiny generated model)', function () {
  this.timeout(180_000);
  let modelsDir: string;
  let modelPath: string;
  let off: SearchTestServer;
  let on: SearchTestServer;

  before(async () => {
    modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-rerank-models-'));
    ({ path: modelPath } = await writeTinyBertRerankerModel(path.join(modelsDir, 'tiny-reranker.gguf')));
    off = await startSearchServer({ plan: 'PRO', embedder: false, env: { MODELS_DIR: modelsDir } });
    on = await startSearchServer({
      plan: 'PRO',
      embedder: false,
      env: { MODELS_DIR: modelsDir, RAG_RERANK_ENABLED: 'true', RAG_RERANK_MODEL: 'tiny-reranker.gguf' },
    });
    await off.uploadTexts(documents);
    await on.uploadTexts(documents);
  });
  after(async () => {
    await off?.stop();
    await on?.stop();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('loads no reranker and answers as before when RAG_RERANK_ENABLED is off (the default)', async () => {
    expect(off.server.kernel.plugins.instances.map((instance) => instance.kind)).to.not.include('reranker');
    const res = await off.call('POST', '/api/search', off.admin, { query, top_k: topK });
    expect(res.status).to.equal(200);
    expect(res.body.retrieval_settings).to.not.have.property('rerank');
    expect(res.body.timing).to.have.keys(['retrieve', 'total']);
  });

  it("orders the fused candidates by the reranker's scores and reports timing.rerank", async () => {
    expect(on.server.kernel.plugins.instances.map((instance) => instance.pluginId)).to.include('reranker-llamacpp');
    // The fused order (lexical here) of every candidate, from the server that does not rerank.
    const fused = (await off.call('POST', '/api/search', off.admin, { query, top_k: 30 })).body.items as Json[];
    expect(fused.map((item) => item.title)).to.deep.equal(Object.keys(documents).reverse());
    // The same model file ranked outside the server: what its order must be.
    const stops: Array<() => unknown> = [];
    const reranker = await rerankerLlamacpp.init({
      options: rerankerLlamacpp.configSchema.parse({ modelPath, threads: 1 }),
      instanceId: 'reranker-llamacpp',
      deps: {},
      logger: quietLogger,
      onStop: (hook) => stops.push(hook),
      signal: new AbortController().signal,
    });
    let scores: number[];
    try {
      scores = await reranker.rank(
        query,
        fused.map((item) => item.text as string),
      );
    } finally {
      for (const stop of stops) await stop();
    }
    const expected = fused
      // By title: chunk ids differ between the two servers, the file names do not.
      .map((item, index) => ({ title: item.title as string, score: scores[index] as number }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
    // Otherwise the test could not tell reranking from no reranking.
    expect(expected.map((entry) => entry.title)).to.not.deep.equal(fused.slice(0, topK).map((item) => item.title));

    const res = await on.call('POST', '/api/search', on.admin, { query, top_k: topK });
    expect(res.status).to.equal(200);
    expect(res.body.retrieval_settings).to.include({ mode: 'lexical', top_k: topK, rerank: 'applied' });
    expect((res.body.items as Json[]).map((item) => item.title)).to.deep.equal(expected.map((entry) => entry.title));
    for (const [index, item] of (res.body.items as Json[]).entries())
      expect(item.score).to.be.closeTo(expected[index]!.score, 1e-9);
    expect(res.body.timing.rerank).to.be.a('number').and.greaterThan(0);
    expect(res.body.timing.total).to.be.at.least(res.body.timing.rerank);
  });

  it('reports the reranking in the chat answer too (timing.rerank, retrieval_settings.rerank)', async () => {
    const res = await on.call('POST', '/api/chat', on.admin, { query });
    expect(res.status).to.equal(200);
    expect(res.body.retrieval_settings.rerank).to.equal('applied');
    expect(res.body.timing.rerank).to.be.a('number').and.greaterThan(0);
    const offChat = await off.call('POST', '/api/chat', off.admin, { query });
    expect(offChat.body.timing).to.not.have.property('rerank');
  });

  it('lists the reranking model with its purpose in GET /api/models, and refuses to switch it in', async () => {
    const models = await on.call('GET', '/api/models', on.admin);
    expect(models.status).to.equal(200);
    const installed = (models.body.installed as Json[]).find((model) => model.file === 'tiny-reranker.gguf');
    expect(installed).to.include({ name: 'tiny-reranker', purpose: 'reranking', architecture: 'bert' });
    const available = (models.body.available as Json[]).find((model) => model.name === 'bge-reranker-v2-m3');
    expect(available).to.include({ purpose: 'reranking', verified: false, sha256: null });
    const use = await on.call('POST', '/api/models/use', on.admin, { name: 'tiny-reranker' });
    expect(use.status).to.equal(422);
    expect(use.body.detail ?? use.body.message).to.include('RAG_RERANK_MODEL');
  });
});
