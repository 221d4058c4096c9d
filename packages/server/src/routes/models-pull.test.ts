import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  createModelFixtures,
  startModelsServer,
  type ModelFixtures,
  type ModelsTestServer,
} from './models.test-support.js';

describe('local models: the catalogue and pulls as jobs (POST /api/models/pull, GET /api/jobs)', function () {
  this.timeout(120_000);
  let fixtures: ModelFixtures;
  let t: ModelsTestServer;

  before(async () => {
    fixtures = await createModelFixtures();
    t = await startModelsServer(fixtures);
  });
  after(async () => {
    await t?.stop();
    await fixtures?.close();
  });
  beforeEach(() => fixtures.files.throttle(null));

  const installed = () => (fs.existsSync(t.modelsDir) ? fs.readdirSync(t.modelsDir).sort() : []);

  it('starts without a chat model: one log line says how to get one, and chat answers extractively', async () => {
    const hint = t.startupLogs.filter((line) => line.includes('No chat model is installed'));
    expect(hint).to.have.lengthOf(1);
    expect(hint[0]).to.include('docqa models pull tiny-chat-a && docqa models use tiny-chat-a');
    const info = await t.call('GET', '/api/model-info', t.admin);
    expect(info.body).to.include({ backend: 'extractive', generative: false });
    expect(info.body.note).to.include('docqa models pull and use');
  });

  it('lists the catalogue, nothing installed, and the configured embedder in use', async () => {
    const res = await t.call('GET', '/api/models', t.admin);
    expect(res.status).to.equal(200);
    expect(res.body.models_dir).to.equal(t.modelsDir);
    expect(res.body.available.map((m: { name: string }) => m.name)).to.deep.equal([
      'tiny-chat-a',
      'tiny-chat-b',
      'tiny-bert-48',
      'tiny-reranker',
      'tampered',
    ]);
    expect(res.body.available[3]).to.include({ name: 'tiny-reranker', purpose: 'reranking' });
    expect(res.body.available[0]).to.include({
      purpose: 'chat',
      recommended: true,
      installed: false,
      license: 'Apache-2.0',
      verified: true,
    });
    expect(res.body.installed).to.deep.equal([]);
    expect(res.body.active.chat).to.equal(null);
    expect(res.body.active.embedding).to.include({ source: 'configured', name: 'tiny-embedder' });
    expect(res.body.index).to.include({ stale: false });
    expect((await t.call('GET', '/api/models', null)).status).to.equal(401);
  });

  it('pulls a model through the job queue with progress, verified, and shows it as kind model_pull', async () => {
    const res = await t.call('POST', '/api/models/pull', t.admin, { name: 'tiny-chat-a' });
    expect(res.status).to.equal(202);
    const job = await t.waitForJob(res.body.job_id);
    expect(job).to.include({ kind: 'model_pull', status: 'succeeded', error: null });
    const kib = Math.floor(fs.statSync(fixtures.sources['tiny-chat-a']!).size / 1024);
    expect(job.progress).to.deep.equal({ done: kib, total: kib });
    expect(job.result).to.include({
      name: 'tiny-chat-a',
      purpose: 'chat',
      sha256_checked: true,
      resumed_from_bytes: 0,
    });
    const listed = await t.call('GET', '/api/jobs?kind=model_pull', t.admin);
    expect(listed.body.items.map((item: { id: string }) => item.id)).to.include(res.body.job_id);
    expect(installed()).to.deep.equal(['tiny-chat-a.gguf']);
    const models = await t.call('GET', '/api/models', t.admin);
    expect(models.body.installed).to.deep.equal([
      {
        name: 'tiny-chat-a',
        file: 'tiny-chat-a.gguf',
        purpose: 'chat',
        size_bytes: fs.statSync(fixtures.sources['tiny-chat-a']!).size,
        architecture: 'llama',
        quantization: 'F32',
        context_length: 2048,
        embedding_length: 64,
        license: 'Apache-2.0',
        from_catalogue: true,
      },
    ]);
    expect((await t.call('POST', '/api/models/pull', t.admin, { name: 'tiny-chat-a' })).status).to.equal(409);
    expect((await t.call('POST', '/api/models/pull', t.admin, { name: 'no-such-model' })).status).to.equal(404);
  });

  it('fails a pull whose SHA-256 does not match, leaving no file behind', async () => {
    const res = await t.call('POST', '/api/models/pull', t.admin, { name: 'tampered' });
    const job = await t.waitForJob(res.body.job_id);
    expect(job.status).to.equal('failed');
    expect(job.error).to.include('SHA-256').and.include('discarded');
    expect(installed().filter((file) => file.startsWith('tampered'))).to.deep.equal([]);
  });

  it('cancels a pull and keeps its partial file; the next pull resumes it with a Range request', async () => {
    fixtures.files.throttle({ chunkBytes: 16 * 1024, delayMs: 30 });
    const res = await t.call('POST', '/api/models/pull', t.admin, { name: 'tiny-chat-b' });
    const part = path.join(t.modelsDir, 'tiny-chat-b.gguf.part');
    const deadline = Date.now() + 10_000;
    while (!(fs.existsSync(part) && fs.statSync(part).size > 32 * 1024)) {
      if (Date.now() > deadline) throw new Error('the pull did not start');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const running = await t.call('GET', `/api/jobs/${res.body.job_id}`, t.admin);
    expect(running.body.status).to.equal('running');
    const cancelled = await t.call('POST', `/api/jobs/${res.body.job_id}/cancel`, t.admin);
    expect(cancelled.status).to.equal(202);
    expect(cancelled.body.status).to.equal('cancelled');
    // The handler lets go of the file (its lock) once the abort reaches the download.
    while (fs.existsSync(`${part}.lock`)) await new Promise((resolve) => setTimeout(resolve, 20));
    const kept = fs.statSync(part).size;
    expect(kept).to.be.greaterThan(0);
    expect(fs.existsSync(path.join(t.modelsDir, 'tiny-chat-b.gguf'))).to.equal(false);

    fixtures.files.throttle(null);
    const again = await t.call('POST', '/api/models/pull', t.admin, { name: 'tiny-chat-b' });
    const job = await t.waitForJob(again.body.job_id);
    expect(job.status).to.equal('succeeded');
    expect(job.result.resumed_from_bytes).to.equal(kept);
    expect(fixtures.files.requests.filter((r) => r.path === '/tiny-chat-b.gguf').at(-1)).to.include({
      range: `bytes=${kept}-`,
      status: 206,
    });
    expect(
      fs
        .readFileSync(path.join(t.modelsDir, 'tiny-chat-b.gguf'))
        .equals(fs.readFileSync(fixtures.sources['tiny-chat-b']!)),
    ).to.equal(true);
  });
});
