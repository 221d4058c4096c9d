import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import pg from 'pg';
import type { ServingCli } from './support/cli.js';
import { ApiClient, until, type Json } from './support/api.js';
import { adminPassword, Deployment, describeOnPostgres } from './support/deployment.js';

/** The streaming replica of the CI server that scripts/ci/install-postgres.sh runs (step 7). */
const replica = {
  port: 5433,
  dir: '/var/lib/postgresql/15/replica',
  log: '/var/log/postgresql/postgresql-15-replica.log',
  pgCtl: '/usr/lib/postgresql/15/bin/pg_ctl',
};

/** pg_ctl as the postgres user, as the install script runs it. */
function pgCtl(...args: string[]): void {
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : ['sudo', '-n', '-u', 'postgres'];
  execFileSync(asPostgres[0] as string, [...asPostgres.slice(1), replica.pgCtl, ...args, '-D', replica.dir], {
    cwd: '/',
    stdio: 'ignore',
  });
}

function onReplica(url: string): string {
  const copy = new URL(url);
  copy.port = String(replica.port);
  return copy.toString();
}

describeOnPostgres('search on a PostgreSQL streaming replica (DATABASE_READ_URL)', function () {
  this.timeout(180_000);
  let deployment: Deployment | undefined;
  let server: ServingCli;
  let client: ApiClient;
  let replicaDb: pg.Client;
  let stopped = false;

  before(async function () {
    const probe = new pg.Client({ connectionString: onReplica(process.env.TEST_DATABASE_URL as string) });
    try {
      await probe.connect();
      await probe.end();
    } catch (error) {
      console.warn(
        `    skipped: no streaming replica answers on 127.0.0.1:${replica.port} (${(error as Error).message}); ` +
          'scripts/ci/install-postgres.sh sets one up',
      );
      this.skip();
    }
    deployment = await Deployment.create('read-replica');
    const replicaUrl = onReplica(deployment.databaseUrl);
    // The new database reaches the replica with the WAL that created it.
    replicaDb = await until('the database on the replica', async () => {
      const candidate = new pg.Client({ connectionString: replicaUrl });
      candidate.on('error', () => undefined); // the second test stops the replica under it
      return candidate.connect().then(
        () => candidate,
        () => null,
      );
    });
    server = await deployment.start([], { DATABASE_READ_URL: replicaUrl, DATABASE_READ_MAX_LAG_SECONDS: '10' });
    client = await ApiClient.login(server.url, 'admin', adminPassword);
  });

  after(async () => {
    // Always back, even after a failure: other runs and engineers read from it.
    if (stopped) pgCtl('start', '-w', '-l', replica.log, '-o', `-p ${replica.port}`);
    await replicaDb?.end().catch(() => undefined);
    await deployment?.dispose();
  });

  async function health(): Promise<Json> {
    return (await fetch(`${server.url}/api/health`)).json() as Promise<Json>;
  }

  /** Index and table reads of the search tables counted by the replica itself (not by the primary). */
  async function replicaScans(): Promise<number> {
    const { rows } = await replicaDb.query<{ scans: string }>(
      `select coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0) as scans
       from pg_stat_user_tables where relname in ('chunk_term', 'chunk', 'document')`,
    );
    return Number(rows[0]?.scans);
  }

  it('finds a document indexed on the primary through the replica, within the lag health reports', async () => {
    const first = await health();
    expect(first.replicas).to.have.length(1);
    expect(first.replicas[0]).to.deep.include({
      name: `127.0.0.1:${replica.port}/${new URL(deployment!.databaseUrl).pathname.slice(1)}`,
      status: 'up',
    });
    expect(JSON.stringify(first.replicas)).not.to.include('docqa:docqa');

    const [document] = (await client.upload([
      { name: 'zephyrine.txt', text: 'Zephyrine lanterns guide the replica reader through the archive.' },
    ])) as [Json];
    expect((await client.waitForJob(document.job_id)).status).to.equal('succeeded');
    const indexed = Date.now();
    const scansBefore = await replicaScans();

    const found = await until('the document through search', async () => {
      const search = await client.call('POST', '/api/search', { query: 'zephyrine lanterns', top_k: 3 });
      expect(search.status, JSON.stringify(search.body)).to.equal(200);
      return search.body.items.some((item: Json) => item.document_id === document.id) && Date.now();
    });
    const reported = await health();
    expect(reported.replicas[0].status).to.equal('up');
    const lag = reported.replicas[0].lag_seconds as number;
    expect(lag).to.be.a('number').and.at.most(10);
    // Found no later than the replica's reported lag after indexing (plus a probe interval's slack).
    expect((found - indexed) / 1000).to.be.at.most(lag + 5);
    // The replica's own statistics saw the search's reads (it flushes them within a few seconds).
    await until('the replica to count the search reads', async () => (await replicaScans()) > scansBefore, 20_000, 500);

    const metrics = await fetch(`${server.url}/api/metrics`, { headers: { authorization: client.authorization } });
    expect(await metrics.text()).to.match(/docqa_db_replica_up\{replica="127\.0\.0\.1:5433\/[^"]+"\} 1/);
  });

  it('keeps searching on the primary once the replica is stopped, and health says it is down', async () => {
    pgCtl('stop', '-m', 'immediate', '-w');
    stopped = true;
    const search = await client.call('POST', '/api/search', { query: 'zephyrine lanterns', top_k: 3 });
    expect(search.status, JSON.stringify(search.body)).to.equal(200);
    expect(search.body.items).to.have.length.greaterThan(0);
    const down = await until('health to report the replica down', async () => {
      const body = await health();
      return body.replicas[0].status === 'down' && body;
    });
    expect(down).to.deep.include({ status: 'degraded' });
    expect(down.replicas[0].lag_seconds).to.equal(null);
    // Later searches go straight to the primary.
    const again = await client.call('POST', '/api/search', { query: 'zephyrine', top_k: 3 });
    expect(again.status).to.equal(200);
    expect(again.body.items).to.have.length.greaterThan(0);
  });
});
