import { expect } from 'chai';
import { readHardware } from '../system/hardware.js';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

describe('model-info tells what the settings do (issue 29, items 3 and 7)', function () {
  this.timeout(120_000);

  describe('extractive answers with RAG_CLASSIFIER_LLM_ENABLED, a local embedder on EMBED_DEVICE=cpu', () => {
    let t: SearchTestServer;
    const logs: string[] = [];

    before(async () => {
      t = await startSearchServer({
        plan: 'FREE',
        embedder: true,
        env: { RAG_CLASSIFIER_LLM_ENABLED: 'true', EMBED_DEVICE: 'cpu', LOG_LEVEL: 'WARNING' },
        server: { logDestination: { write: (line: string) => void logs.push(line) } },
      });
    });
    after(async () => {
      await t?.stop();
    });

    it('says at start and in model-info that the classifier setting has no effect without a model', async () => {
      const warned = logs.filter((line) => line.includes('RAG_CLASSIFIER_LLM_ENABLED has no effect'));
      expect(warned, 'one warning at start').to.have.lengthOf(1);
      const info = await t.call('GET', '/api/model-info', t.admin);
      expect(info.status).to.equal(200);
      expect(info.body.backend).to.equal('extractive');
      expect(info.body.classifier_llm).to.include({ enabled: true, active: false });
      expect(info.body.classifier_llm.note).to.include('rule priority');
    });

    it('reports the device the embedding model computes on', async () => {
      const info = await t.call('GET', '/api/model-info', t.admin);
      expect(info.body.embedding).to.include({ device: 'cpu', gpu: false });
    });
  });

  it('refuses to start with EMBED_DEVICE=cuda where llama.cpp cannot use CUDA, naming the variable', async function () {
    if ((await readHardware()).cuda_available) this.skip();
    let started: SearchTestServer | null = null;
    try {
      started = await startSearchServer({ plan: 'FREE', embedder: true, env: { EMBED_DEVICE: 'cuda' } });
    } catch (error) {
      expect((error as Error).message)
        .to.include('EMBED_DEVICE=cuda')
        .and.to.include('EMBED_DEVICE=auto');
      return;
    } finally {
      await started?.stop();
    }
    expect.fail('the server started with EMBED_DEVICE=cuda on a machine without CUDA');
  });
});
