import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { baseEnv, runCli, type ServingCli } from './support/cli.js';
import { ApiClient, sleep, until, type Json } from './support/api.js';
import { adminPassword, Deployment, describeOnPostgres, writeTextFiles } from './support/deployment.js';

describe('docqa serve --role (end to end)', function () {
  this.timeout(180_000);

  it('refuses a worker on the embedded database (so also api: see load.test.ts), and an unknown role', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-role-'));
    const env = baseEnv({
      JWT_SECRET_KEY: 'j'.repeat(48),
      MFA_ENCRYPTION_KEY: 'm'.repeat(48),
      DOCQA_DATA_DIR: path.join(dir, 'data'),
    });
    try {
      const worker = await runCli(['serve', '--role', 'worker'], { cwd: dir, env });
      expect(worker.code).to.equal(1);
      expect(worker.stderr.trim()).to.match(
        /^Configuration error: DOCQA_ROLE=worker \(docqa serve --role worker\) needs DATABASE_URL: the embedded database belongs to one process/,
      );
      const unknown = await runCli(['serve', '--role', 'both'], { cwd: dir, env });
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.include('--role must be one of all, api, worker, not "both"');
      expect(fs.existsSync(path.join(dir, 'data', 'pgdata')), 'nothing was started').to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describeOnPostgres('an api process and a worker process on one PostgreSQL', () => {
    let deployment: Deployment;
    let api: ServingCli;
    let worker: ServingCli;
    let client: ApiClient;
    before(async () => {
      deployment = await Deployment.create('roles');
      api = await deployment.start(['--role', 'api']);
      client = await ApiClient.login(api.url, 'admin', adminPassword);
    });
    after(async () => deployment?.dispose());

    it('the api process queues work and runs none; the worker runs it and answers only health and version', async () => {
      const [document] = (await client.upload([
        { name: 'alpha.txt', text: 'Alpha is a document that only a worker process can index.' },
      ])) as [Json];
      await sleep(3000);
      expect((await client.job(document.job_id)).status, 'no process runs jobs yet').to.equal('queued');

      worker = await deployment.start(['--role', 'worker']);
      expect(worker.output()).to.include('(role worker: /api/health and /api/version only)');
      const health = await fetch(`${worker.url}/api/health`);
      expect(health.status).to.equal(200);
      expect(((await health.json()) as Json).checks).to.deep.include({ database: 'ok', jobs: 'ok' });
      expect((await fetch(`${worker.url}/api/version`)).status).to.equal(200);
      for (const [method, route] of [
        ['GET', '/api/docs'],
        ['POST', '/api/auth/login'],
        ['GET', '/docs'],
      ] as const) {
        expect((await fetch(worker.url + route, { method })).status, `${method} ${route} on the worker`).to.equal(404);
      }

      const job = await client.waitForJob(document.job_id, 60_000);
      expect(job.status, JSON.stringify(job)).to.equal('succeeded');
      const listed = (await client.call('GET', '/api/docs?status=indexed')).body.items as Json[];
      expect(listed.map((item) => item.id)).to.deep.equal([document.id]);
      const indexedBy = (process: ServingCli) =>
        process
          .output()
          .split('\n')
          .filter((line) => line.includes('"msg":"document indexed"') && line.includes(document.id)).length;
      // Log lines reach standard output within a second (docs/operations.md, "Load").
      await until('the worker to log the document indexed', async () => indexedBy(worker) > 0, 2_000, 50);
      expect([indexedBy(api), indexedBy(worker)]).to.deep.equal([0, 1]);
    });

    it('a sync running on the worker is cancelled through the api process and ends cancelled within 5 s', async () => {
      const dir = path.join(deployment.docs, 'slow');
      writeTextFiles(dir, 3000);
      const connector = await client.createConnector('Slow', dir);
      const jobId = await client.scan(connector);
      await until(
        'the sync to run and report progress',
        async () => {
          const job = await client.job(jobId);
          return job.status === 'running' && job.progress.done > 0;
        },
        60_000,
        50,
      );

      const cancelledAt = Date.now();
      const answer = await client.call('POST', `/api/jobs/${jobId}/cancel`);
      expect(answer.status).to.equal(202);
      const left = () => Math.max(1, 5000 - (Date.now() - cancelledAt));
      await until('the job to be cancelled', async () => (await client.job(jobId)).status === 'cancelled', left(), 50);
      // The worker's handler saw it too: the sync stopped and recorded why on the source.
      await until(
        'the worker to stop the sync',
        async () => (await client.call('GET', `/api/connectors/${connector}`)).body.last_sync_status === 'cancelled',
        left(),
        50,
      );
      const stoppedWithin = Date.now() - cancelledAt;
      expect(stoppedWithin).to.be.below(5000);

      const stored = async () =>
        (
          await deployment.sql<{ n: number }>('select count(*)::int as n from document where source_id = $1', [
            connector,
          ])
        )[0]?.n;
      const atStop = await stored();
      await sleep(1500);
      expect(await stored(), 'nothing is stored after the stop').to.equal(atStop);
      expect(atStop).to.be.below(3000);
      expect((await client.job(jobId)).status).to.equal('cancelled');
    });
  });
});
