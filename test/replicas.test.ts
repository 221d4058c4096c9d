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

    // Log lines reach standard output within a second (docs/operations.md, "Load"): every document's
    // line is waited for (a little longer), and only then counted.
    await until('every document indexed line', async () => indexedLines([one, two]).byDocument.size >= 50, 3_000, 50);
    const { byDocument, byProcess } = indexedLines([one, two]);
    expect([...byDocument.keys()].sort()).to.deep.equal(uploaded.map((document) => document.id).sort());
    expect(
      [...byDocument.values()].every((count) => count === 1),
      'each indexed exactly once',
    ).to.equal(true);
    // Each process polls every second and the other takes its jobs back to back, so this has failed once
    // (50 + 0) under the load of both CI suites. The idle process's warnings and errors say why, if any.
    const idleLog = (running: ServingCli): string =>
      running
        .output()
        .split('\n')
        .filter((line) => /"level":"(warn|error|fatal)"/.test(line))
        .slice(-20)
        .join('\n');
    expect(
      byProcess.every((count) => count > 0),
      `both processes indexed some: ${byProcess.join(' + ')}\n` +
        [one, two].map((running, index) => (byProcess[index] ? '' : idleLog(running))).join('\n'),
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

    // pg-boss files each occurrence of a cron entry once, keyed by the entry and the minute it falls
    // in, and then forwards it as the sync job. The forward comes after the first cron pass of that
    // minute (passes are 30 s apart, shared by both processes) plus its worker's poll, so a job's
    // creation time can fall in the next minute: occurrences are counted by the minute they were
    // filed for, and every one of them must be one job, whichever process ran the pass.
    type Counts = { forwarded: number; pending: number; jobs: number; slots: string[]; duplicates: number };
    const counts = async (): Promise<Counts> => {
      const [row] = await deployment.sql<Counts>(
        `select count(*) filter (where name = $2 and state = 'completed')::int as forwarded,
                count(*) filter (where name = $2 and state <> 'completed')::int as pending,
                count(*) filter (where name = 'sync' and data->>'scheduleId' = $1)::int as jobs,
                coalesce(array_agg(distinct data->>'slot') filter (where name = $2), '{}') as slots,
                (count(*) filter (where name = $2) - count(distinct data->>'slot') filter (where name = $2))::int
                  as duplicates
           from pgboss.job where name = 'sync' or (name = $2 and data->>'key' = $1)`,
        [created.body.id, '__pgboss__send-it'],
      );
      return row!;
    };
    await until(
      'two occurrences forwarded',
      async () => ((await counts()).forwarded >= 2 ? true : null),
      200_000,
      1000,
    );
    // Long enough for both processes' next passes: a second copy of an occurrence would come then.
    await sleep(40_000);
    const settled = await until(
      'no occurrence in flight',
      async () => {
        const now = await counts();
        return now.pending === 0 ? now : null;
      },
      60_000,
      500,
    );
    expect(settled.duplicates, `occurrences: ${JSON.stringify(settled)}`).to.equal(0);
    expect(settled.jobs, `one job per occurrence: ${JSON.stringify(settled)}`).to.equal(settled.forwarded);
    expect(settled.slots.length).to.be.at.least(2);

    const jobs = (await clients[0]!.call('GET', `/api/jobs?kind=scan&source_id=${connector}&limit=100`)).body
      .items as Json[];
    expect(jobs.length).to.equal(settled.jobs);
    for (const job of jobs.filter((candidate) => candidate.status !== 'running' && candidate.status !== 'queued'))
      expect(job.status).to.equal('succeeded');
    const schedule = (await clients[1]!.call('GET', `/api/schedules/${created.body.id}`)).body;
    expect(schedule.last_run).to.equal(jobs[0]!.created_at);
  });
});
