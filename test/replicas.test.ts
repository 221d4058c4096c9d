import path from 'node:path';
import { expect } from 'chai';
import type { ServingCli } from './support/cli.js';
import { ApiClient, sleep, until, type Json } from './support/api.js';
import { adminPassword, Deployment, describeOnPostgres, writeTextFiles } from './support/deployment.js';

/** How many `document indexed` log lines each process wrote, by document id. */
function indexedLines(processes: ServingCli[]): { byDocument: Map<string, number>; byProcess: number[] } {
  const byDocument = new Map<string, number>();
  const byProcess = processes.map((running) => {
    const lines = running
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"document indexed"'));
    for (const line of lines) {
      const id = (JSON.parse(line) as { document_id: string }).document_id;
      byDocument.set(id, (byDocument.get(id) ?? 0) + 1);
    }
    return lines.length;
  });
  return { byDocument, byProcess };
}

describeOnPostgres('two DocQA processes on one PostgreSQL (end to end)', function () {
  this.timeout(300_000);
  let deployment: Deployment;
  let one: ServingCli;
  let two: ServingCli;
  let clients: ApiClient[];

  before(async () => {
    deployment = await Deployment.create('replicas');
    [one, two] = await Promise.all([deployment.start(), deployment.start()]);
    clients = await Promise.all([one, two].map((running) => ApiClient.login(running.url, 'admin', adminPassword)));
  });
  after(async () => deployment?.dispose());

  it('50 uploaded documents are each indexed exactly once, the work shared by both processes', async () => {
    const uploaded: Json[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const files = Array.from({ length: 10 }, (_, i) => ({
        name: `doc-${batch * 10 + i}.txt`,
        text: `Document ${batch * 10 + i} has its own words: ${'lorem ipsum '.repeat(20 + batch * 10 + i)}`,
      }));
      uploaded.push(...(await (clients[batch % 2] as ApiClient).upload(files)));
    }
    expect(new Set(uploaded.map((document) => document.id)).size).to.equal(50);
    await until(
      'every document to be indexed',
      async () => (await clients[0]!.call('GET', '/api/docs?status=indexed&limit=1')).body.total === 50,
      120_000,
    );

    const { byDocument, byProcess } = indexedLines([one, two]);
    expect([...byDocument.keys()].sort()).to.deep.equal(uploaded.map((document) => document.id).sort());
    expect(
      [...byDocument.values()].every((count) => count === 1),
      'each indexed exactly once',
    ).to.equal(true);
    expect(
      byProcess.every((count) => count > 0),
      `both processes indexed some: ${byProcess.join(' + ')}`,
    ).to.equal(true);
    const [jobs] = await deployment.sql<{ n: number; completed: number; retries: number }>(
      `select count(*)::int as n, count(*) filter (where state = 'completed')::int as completed, sum(retry_count)::int as retries from pgboss.job where name = 'ingest'`,
    );
    expect(jobs).to.deep.equal({ n: 50, completed: 50, retries: 0 });
  });

  it('a per-minute schedule fires once a minute, not once per process', async function () {
    this.timeout(240_000);
    const dir = path.join(deployment.docs, 'scheduled');
    writeTextFiles(dir, 3);
    const connector = await clients[0]!.createConnector('Scheduled', dir);
    const created = await clients[1]!.call('POST', '/api/schedules', {
      source_type: 'connector',
      source_id: connector,
      cron: '* * * * *',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);

    // A tick of minute m is sent by the first cron pass after m:00 (every 30 s in each process);
    // a second copy from the other process would come in that same minute.
    const ticks = async () => {
      const jobs = (await clients[0]!.call('GET', `/api/jobs?kind=scan&source_id=${connector}&limit=100`)).body
        .items as Json[];
      const perMinute = new Map<string, number>();
      for (const job of jobs)
        perMinute.set(
          String(job.created_at).slice(0, 16),
          (perMinute.get(String(job.created_at).slice(0, 16)) ?? 0) + 1,
        );
      return { jobs, perMinute };
    };
    const seen = await until(
      'two ticks',
      async () => ((await ticks()).perMinute.size >= 2 ? ticks() : null),
      200_000,
      1000,
    );
    const secondMinute = [...seen.perMinute.keys()].sort().at(-1) as string;
    // Past the second tick's minute by 50 s, when any duplicate of it would have arrived.
    const settled = new Date(`${secondMinute}:50Z`).getTime() - Date.now();
    if (settled > 0) await sleep(settled);

    const { jobs, perMinute } = await ticks();
    expect(
      [...perMinute.values()].every((count) => count === 1),
      `jobs per minute: ${JSON.stringify([...perMinute])}`,
    ).to.equal(true);
    expect(perMinute.size).to.be.at.least(2);
    for (const job of jobs.filter((candidate) => candidate.status !== 'running' && candidate.status !== 'queued'))
      expect(job.status).to.equal('succeeded');
    const schedule = (await clients[1]!.call('GET', `/api/schedules/${created.body.id}`)).body;
    expect(schedule.last_run).to.equal(jobs[0]!.created_at);
  });
});
