import { expect } from 'chai';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@docqa/plugin-testkit';
import { startSearchServer, type SearchTestServer } from '../testing/search-server.test-support.js';

const apiKey = 'sk-metrics-test-key';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The sample lines of a Prometheus text exposition (comments and blank lines left out). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = raw!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`; 0 when there are none (a counter not yet increased). */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

function series(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

describe('Prometheus metrics (GET /api/metrics, METRICS_PORT)', function () {
  this.timeout(180_000);
  let llm: ChatCompletionsServer;
  let t: SearchTestServer;
  let viewer: string;

  async function scrape(): Promise<Sample[]> {
    const res = await fetch(`${t.server.url}/api/metrics`, { headers: { authorization: `Bearer ${t.admin}` } });
    expect(res.status).to.equal(200);
    return parseExposition(await res.text());
  }

  /** Scrapes until `check` holds: counters of a job move a moment after the document shows indexed. */
  async function scrapeUntil(check: (samples: Sample[]) => boolean): Promise<Sample[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const samples = await scrape();
      if (check(samples) || Date.now() > deadline) return samples;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  before(async () => {
    llm = await startChatCompletionsServer({ apiKey });
    t = await startSearchServer({
      plan: 'PRO',
      embedder: false,
      env: {
        LLM_BACKEND: 'hosted',
        HOSTED_API_KEY: apiKey,
        HOSTED_MODEL: 'docqa-test-chat',
        HOSTED_BASE_URL: llm.baseUrl,
        INFERENCE_TIMEOUT_SECONDS: '10',
        METRICS_PORT: '0',
      },
    });
    expect(
      (await t.call('POST', '/api/auth/users', t.admin, { username: 'metrics-viewer', password: 'viewer-password-1' }))
        .status,
    ).to.equal(201);
    viewer = await t.login('metrics-viewer', 'viewer-password-1');
  });
  after(async () => {
    await t?.stop();
    await llm?.close();
  });

  it('answers 401 without a token, 403 to a non-admin, and the text format with the process defaults to an admin', async () => {
    expect((await fetch(`${t.server.url}/api/metrics`)).status).to.equal(401);
    const forbidden = await fetch(`${t.server.url}/api/metrics`, { headers: { authorization: `Bearer ${viewer}` } });
    expect(forbidden.status).to.equal(403);
    expect(((await forbidden.json()) as { code: string }).code).to.equal('forbidden');

    const res = await fetch(`${t.server.url}/api/metrics`, { headers: { authorization: `Bearer ${t.admin}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text)
      .to.include('# TYPE docqa_http_requests_total counter')
      .and.include('# TYPE docqa_http_request_duration_seconds histogram');
    const samples = parseExposition(text);
    expect(total(samples, 'docqa_process_resident_memory_bytes')).to.be.greaterThan(0);
    expect(total(samples, 'docqa_nodejs_heap_size_used_bytes')).to.be.greaterThan(0);
    // Every metric of this registry is DocQA's: nothing unprefixed, nothing from the global registry.
    expect(samples.filter((sample) => !sample.name.startsWith('docqa_'))).to.deep.equal([]);
  });

  it('counts an indexed upload: ingestion counters, the ingest job, and its duration', async () => {
    const before = await scrape();
    const text = 'Metrics policy.\n\nEvery replica is scraped every fifteen seconds by the monitoring server.';
    await t.uploadTexts({ 'metrics-policy.txt': text });
    const finished = (samples: Sample[]) =>
      total(samples, 'docqa_jobs_finished_total', { kind: 'ingest', outcome: 'succeeded' });
    const after = await scrapeUntil((samples) => finished(samples) > finished(before));

    expect(
      total(after, 'docqa_ingest_documents_total', { outcome: 'indexed' }) -
        total(before, 'docqa_ingest_documents_total', { outcome: 'indexed' }),
    ).to.equal(1);
    expect(total(after, 'docqa_ingest_source_bytes_total') - total(before, 'docqa_ingest_source_bytes_total')).to.equal(
      Buffer.byteLength(text),
    );
    const { rows } = await t.server.kernel.db.query<{ chunk_count: number }>(
      `select chunk_count from document where filename = 'metrics-policy.txt'`,
    );
    expect(rows[0]!.chunk_count).to.be.greaterThan(0);
    expect(total(after, 'docqa_ingest_chunks_total') - total(before, 'docqa_ingest_chunks_total')).to.equal(
      rows[0]!.chunk_count,
    );
    expect(
      total(after, 'docqa_ingest_duration_seconds_count', { outcome: 'indexed' }) -
        total(before, 'docqa_ingest_duration_seconds_count', { outcome: 'indexed' }),
    ).to.equal(1);

    expect(finished(after) - finished(before)).to.equal(1);
    expect(
      total(after, 'docqa_jobs_started_total', { kind: 'ingest' }) -
        total(before, 'docqa_jobs_started_total', { kind: 'ingest' }),
    ).to.equal(1);
    expect(
      total(after, 'docqa_job_duration_seconds_count', { kind: 'ingest', outcome: 'succeeded' }) -
        total(before, 'docqa_job_duration_seconds_count', { kind: 'ingest', outcome: 'succeeded' }),
    ).to.equal(1);
    expect(total(after, 'docqa_job_duration_seconds_sum', { kind: 'ingest', outcome: 'succeeded' })).to.be.greaterThan(
      total(before, 'docqa_job_duration_seconds_sum', { kind: 'ingest', outcome: 'succeeded' }),
    );
    // Nothing is left waiting in the ingest queue, and the count itself answered.
    expect(total(after, 'docqa_job_queue_depth_up')).to.equal(1);
    expect(series(after, 'docqa_jobs', { queue: 'ingest', state: 'queued' })).to.have.lengthOf(1);
  });

  it('reports the queue depth counted in the database at scrape time, per queue and state', async () => {
    // A queue no process works: its jobs stay queued, exactly as many as were sent.
    const jobs = t.server.kernel.jobs;
    await jobs.createQueue('metrics_probe', { retryLimit: 0 });
    const empty = await scrape();
    expect(
      series(empty, 'docqa_jobs', { queue: 'metrics_probe' })
        .map((sample) => [sample.labels.state, sample.value])
        .sort(),
    ).to.deep.equal([
      ['queued', 0],
      ['running', 0],
    ]);
    await jobs.send('metrics_probe', { n: 1 });
    await jobs.send('metrics_probe', { n: 2 });
    const queued = await scrape();
    expect(total(queued, 'docqa_jobs', { queue: 'metrics_probe', state: 'queued' })).to.equal(2);
    expect(total(queued, 'docqa_jobs', { queue: 'metrics_probe', state: 'running' })).to.equal(0);
  });

  it('tells failed and cancelled jobs apart from succeeded ones, by kind', async () => {
    const jobs = t.server.kernel.jobs;
    await jobs.createQueue('metrics_outcomes', { retryLimit: 0 });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    await jobs.work<{ mode: string }>('metrics_outcomes', async (job) => {
      if (job.data.mode === 'fail') throw new Error('this job fails on purpose');
      started();
      await new Promise((resolve) => job.signal.addEventListener('abort', resolve, { once: true }));
      throw new Error('stopped');
    });
    const finished = (samples: Sample[], outcome: string) =>
      total(samples, 'docqa_jobs_finished_total', { kind: 'metrics_outcomes', outcome });
    await jobs.send('metrics_outcomes', { mode: 'fail' });
    await scrapeUntil((samples) => finished(samples, 'failed') === 1);
    const id = await jobs.send('metrics_outcomes', { mode: 'wait' });
    await running;
    await jobs.cancel('metrics_outcomes', id);
    const samples = await scrapeUntil((samples) => finished(samples, 'cancelled') === 1);
    expect([finished(samples, 'failed'), finished(samples, 'cancelled'), finished(samples, 'succeeded')]).to.deep.equal(
      [1, 1, 0],
    );
    expect(total(samples, 'docqa_jobs_started_total', { kind: 'metrics_outcomes' })).to.equal(2);
    expect(
      total(samples, 'docqa_job_duration_seconds_count', { kind: 'metrics_outcomes', outcome: 'cancelled' }),
    ).to.equal(1);
  });

  it("counts the tokens, generation time and first-token time of a hosted model's answer, by backend", async () => {
    llm.reply = 'Every replica is scraped every fifteen seconds [1].';
    const before = await scrape();
    const res = await t.call('POST', '/api/chat', t.admin, { query: 'How often is every replica scraped?' });
    expect(res.status).to.equal(200);
    expect(res.body.answer).to.equal(llm.reply);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);

    const hosted = { backend: 'hosted' };
    // The reply is 8 words: the estimate never counts fewer tokens than words.
    expect(delta('docqa_llm_completion_tokens_total', hosted)).to.be.at.least(8);
    expect(delta('docqa_llm_prompt_tokens_total', hosted)).to.be.greaterThan(
      delta('docqa_llm_completion_tokens_total', hosted),
    );
    expect(delta('docqa_llm_generation_seconds_total', hosted)).to.be.greaterThan(0);
    expect(delta('docqa_llm_time_to_first_token_seconds_count', hosted)).to.equal(1);
    expect(delta('docqa_chat_requests_total', { outcome: 'answered' })).to.equal(1);
  });

  it('labels HTTP requests with the route pattern, never the raw path', async () => {
    const id = (await t.uploadTexts({ 'route-labels.txt': 'Route labels are patterns.' }))['route-labels.txt']!;
    const { rows } = await t.server.kernel.db.query<{ job_id: string }>('select job_id from document where id = $1', [
      id,
    ]);
    const jobId = rows[0]!.job_id;
    expect((await t.call('GET', `/api/jobs/${jobId}`, t.admin)).status).to.equal(200);
    expect((await t.call('GET', '/api/jobs/00000000-0000-4000-8000-000000000000', t.admin)).status).to.equal(404);
    expect((await t.call('PUT', `/api/docs/${id}`, t.admin)).status).to.equal(405);
    expect((await t.call('GET', `/api/no-such-endpoint/${id}`, t.admin)).status).to.equal(404);
    const samples = await scrape();

    expect(
      total(samples, 'docqa_http_requests_total', { method: 'GET', route: '/api/jobs/:id', status: '200' }),
    ).to.be.at.least(1);
    expect(
      total(samples, 'docqa_http_requests_total', { method: 'GET', route: '/api/jobs/:id', status: '404' }),
    ).to.be.at.least(1);
    expect(
      total(samples, 'docqa_http_requests_total', { method: 'PUT', route: '/api/docs/:id', status: '405' }),
    ).to.equal(1);
    expect(
      total(samples, 'docqa_http_requests_total', { method: 'GET', route: 'other', status: '404' }),
    ).to.be.at.least(1);
    expect(
      total(samples, 'docqa_http_request_duration_seconds_count', { method: 'GET', route: '/api/jobs/:id' }),
    ).to.be.at.least(2);
    expect(
      series(samples, 'docqa_http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/api/jobs/:id',
        le: '+Inf',
      }),
    ).to.have.lengthOf(1);
    const routes = new Set(
      samples.filter((sample) => sample.name.startsWith('docqa_http_')).map((sample) => sample.labels.route),
    );
    expect(
      [...routes].filter((route) => route?.includes(id) || route?.includes(jobId) || route?.includes('00000000')),
    ).to.deep.equal([]);
  });

  it('serves the same metrics without authentication on METRICS_PORT, and nothing else there', async () => {
    expect(t.server.metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    await scrape(); // a request of the main port, which the listener must show
    const res = await fetch(`${t.server.metricsUrl}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(await res.text());
    expect(total(samples, 'docqa_ingest_documents_total', { outcome: 'indexed' })).to.be.at.least(1);
    expect(total(samples, 'docqa_http_requests_total', { route: '/api/metrics' })).to.be.at.least(1);
    expect((await fetch(`${t.server.metricsUrl}/api/metrics`)).status).to.equal(200);
    expect((await fetch(`${t.server.metricsUrl}/api/health`)).status).to.equal(404);
    expect((await fetch(`${t.server.metricsUrl}/metrics`, { method: 'POST' })).status).to.equal(405);
  });

  it('opens no metrics port unless METRICS_PORT is set', async () => {
    const plain = await startSearchServer({ plan: 'FREE', embedder: false });
    try {
      expect(plain.server.metricsUrl).to.equal(null);
      // Its own registry: the first server's counters do not show here.
      const res = await fetch(`${plain.server.url}/api/metrics`, {
        headers: { authorization: `Bearer ${plain.admin}` },
      });
      expect(total(parseExposition(await res.text()), 'docqa_ingest_documents_total')).to.equal(0);
    } finally {
      await plain.stop();
    }
  });

  it('a worker-only process (no API) shows its metrics on METRICS_PORT', async function () {
    if (!process.env.TEST_DATABASE_URL) this.skip(); // DOCQA_ROLE=worker needs a PostgreSQL server
    const worker = await startSearchServer({
      plan: 'FREE',
      embedder: false,
      env: { DOCQA_ROLE: 'worker', METRICS_PORT: '0' },
    });
    try {
      expect((await fetch(`${worker.server.url}/api/metrics`)).status).to.equal(404);
      const res = await fetch(`${worker.server.metricsUrl}/metrics`);
      expect(res.status).to.equal(200);
      const samples = parseExposition(await res.text());
      expect(total(samples, 'docqa_job_queue_depth_up')).to.equal(1);
      expect(series(samples, 'docqa_jobs', { queue: 'ingest', state: 'queued' })).to.have.lengthOf(1);
    } finally {
      await worker.stop();
    }
  });
});
