import path from 'node:path';
import { expect } from 'chai';
import type { ServingCli } from './support/cli.js';
import { ApiClient, until } from './support/api.js';
import { adminPassword, Deployment, describeOnPostgres, writeTextFiles } from './support/deployment.js';

const files = 1500;

describeOnPostgres('a worker killed mid-sync (end to end)', function () {
  this.timeout(420_000);
  let deployment: Deployment;
  let worker: ServingCli;
  let client: ApiClient;

  before(async () => {
    deployment = await Deployment.create('crash');
    const api = await deployment.start(['--role', 'api']);
    worker = await deployment.start(['--role', 'worker']);
    client = await ApiClient.login(api.url, 'admin', adminPassword);
  });
  after(async () => deployment?.dispose());

  /** Documents of a source, and their chunks as the chunk table holds them. */
  const indexOf = (sourceId: string) =>
    deployment.sql<{ path: string; status: string; chunk_count: number; chunks: number; copies: number }>(
      `select d.path, d.status, d.chunk_count, (select count(*)::int from chunk c where c.document_id = d.id) as chunks,
              count(*) over (partition by d.path)::int as copies
         from document d where d.source_id = $1 order by d.path`,
      [sourceId],
    );
  const allIndexed = (sourceId: string) =>
    until(
      `every document of ${sourceId} to be indexed`,
      async () => {
        const rows = await indexOf(sourceId);
        return rows.length === files && rows.every((row) => row.status === 'indexed') ? rows : null;
      },
      300_000,
      500,
    );

  it('restarted, it finishes the sync; the index equals a clean sync of the same files, without duplicates', async () => {
    const dir = path.join(deployment.docs, 'corpus');
    writeTextFiles(dir, files, 200);
    const crashed = await client.createConnector('Crashed', dir);
    const jobId = await client.scan(crashed);
    const storedAtKill = await until(
      'the sync to be part way',
      async () => {
        const [row] = await deployment.sql<{ n: number }>(
          'select count(*)::int as n from document where source_id = $1',
          [crashed],
        );
        return row!.n >= 200 ? row!.n : null;
      },
      120_000,
      20,
    );
    const exited = new Promise((resolve) => worker.child.once('exit', resolve));
    worker.child.kill('SIGKILL');
    await exited;
    expect(storedAtKill, 'killed mid-sync').to.be.below(files);

    await deployment.start(['--role', 'worker']);
    // pg-boss fails the dead worker's jobs once their heartbeat is missed, then retries them.
    const job = await client.waitForJob(jobId, 300_000);
    expect(job.status, JSON.stringify(job)).to.equal('succeeded');
    const afterCrash = await allIndexed(crashed);

    const clean = await client.createConnector('Clean', dir);
    expect((await client.waitForJob(await client.scan(clean))).status).to.equal('succeeded');
    const reference = await allIndexed(clean);

    expect(
      afterCrash.filter((row) => row.copies > 1),
      'no document twice',
    ).to.deep.equal([]);
    expect(
      afterCrash.filter((row) => row.chunks !== row.chunk_count),
      'no chunk twice or missing',
    ).to.deep.equal([]);
    const shape = (rows: typeof reference) => rows.map((row) => [row.path, row.chunks]);
    expect(shape(afterCrash)).to.deep.equal(shape(reference));
  });
});
