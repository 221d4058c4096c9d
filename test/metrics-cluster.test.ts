import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { until } from './support/api.js';
import { Deployment, describeOnPostgres } from './support/deployment.js';
import type { ServingCli } from './support/cli.js';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A GET on a connection of its own (no keep-alive), so that the cluster hands each to the next process. */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** The value of one sample line of the exposition text, or 0 when the series is absent. */
function sample(text: string, line: RegExp): number {
  const match = line.exec(text);
  return match ? Number(match[1]) : 0;
}

describeOnPostgres('metrics of a cluster (BACKEND_WORKERS=2, METRICS_PORT)', function () {
  this.timeout(180_000);
  let deployment: Deployment;
  let server: ServingCli;
  let metricsUrl: string;

  before(async () => {
    deployment = await Deployment.create('metrics-cluster');
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    server = await deployment.start([], { BACKEND_WORKERS: '2', METRICS_PORT: String(port), LOG_LEVEL: 'INFO' });
    const listening = () =>
      new Set([...server.output().matchAll(/"pid":(\d+)[^\n]*DocQA is listening/g)].map((match) => match[1]));
    await until('both server processes listen', async () => listening().size === 2);
    // Until every process shares its registry, the primary's request waits for the missing answer.
    await until(
      'the metrics of both processes answer',
      async () => (await getOnNewConnection(metricsUrl).catch(() => null))?.status === 200,
    );
  });
  after(async () => deployment?.dispose());

  it('the primary answers METRICS_PORT with the sum of both processes, the queue depth not doubled', async () => {
    const requests = 20;
    for (let i = 0; i < requests; i++)
      expect((await getOnNewConnection(`${server.url}/api/version`)).status).to.equal(200);
    // Three jobs that wait an hour before any worker may take them: queued, as both processes count them.
    await deployment.sql(
      `insert into pgboss.job (name, data, start_after, policy) select 'metadata_refresh', '{}'::jsonb, now() + interval '1 hour', 'standard' from generate_series(1, 3)`,
    );

    const { status, body } = await getOnNewConnection(metricsUrl);
    expect(status).to.equal(200);
    expect(
      sample(body, /^docqa_http_requests_total\{method="GET",route="\/api\/version",status="200"\} (\S+)$/m),
    ).to.equal(requests);
    expect(sample(body, /^docqa_job_queue_depth_up (\S+)$/m)).to.equal(1);
    expect(sample(body, /^docqa_jobs\{queue="metadata_refresh",state="queued"\} (\S+)$/m)).to.equal(3);
  });

  it('each process alone saw only part of those requests: the sum is what a scrape needs', async () => {
    const before = await getOnNewConnection(metricsUrl);
    const total = sample(
      before.body,
      /^docqa_http_requests_total\{method="GET",route="\/api\/version",status="200"\} (\S+)$/m,
    );
    // Which process answered each request, from the access log lines (they carry the pid), which
    // reach standard output within a second (docs/operations.md, "Load").
    const versionLines = () =>
      [...server.output().matchAll(/"pid":(\d+)[^\n]*"path":"\/api\/version"/g)].map((match) => match[1]);
    const pids = await until(
      'every access log line',
      async () => versionLines().length >= total && versionLines(),
      2_000,
      50,
    );
    expect(pids).to.have.lengthOf(total);
    expect(new Set(pids).size, 'both processes answered some of the requests').to.equal(2);
  });
});
