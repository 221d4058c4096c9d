import net from 'node:net';
import { expect } from 'chai';
import pg from 'pg';
import type { Logger } from '@docqa/plugin-api';
import { ReadReplicas, replicaName } from './read-replicas.js';

const primaryUrl = process.env.TEST_DATABASE_URL;
/** The streaming replica scripts/ci/install-postgres.sh runs beside the CI server. */
const replicaPort = 5433;

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => quiet,
};

/** Counts what reaches the primary, to tell where a read went. */
function countingPrimary(pool: pg.Pool) {
  const seen: string[] = [];
  return {
    seen,
    async query<R>(text: string, params: readonly unknown[] = []) {
      seen.push(text);
      const result = await pool.query(text, params as unknown[]);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
  };
}

/** A TCP hop to the server: the "replica" that dies when the hop closes. */
async function proxyTo(url: string): Promise<{ port: number; kill: () => void }> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const end = () => (socket.destroy(), upstream.destroy());
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    kill: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

function withPort(url: string, port: number): string {
  const copy = new URL(url);
  copy.hostname = '127.0.0.1';
  copy.port = String(port);
  return copy.toString();
}

describe('read replicas (routing)', function () {
  this.timeout(30_000);
  let primaryPool: pg.Pool;
  const opened: ReadReplicas[] = [];

  before(function () {
    if (!primaryUrl) this.skip(); // needs a PostgreSQL server to stand for the primary and the replicas
    primaryPool = new pg.Pool({ connectionString: primaryUrl, max: 2 });
  });
  afterEach(async () => {
    for (const replicas of opened.splice(0)) await replicas.close();
  });
  after(async () => primaryPool?.end());

  function replicasOf(primary: ReturnType<typeof countingPrimary>, urls: string[], maxLagSeconds = 30) {
    const replicas = new ReadReplicas(
      primary,
      urls.map((url) => ({ name: replicaName(url), pool: new pg.Pool({ connectionString: url, max: 2 }) })),
      { maxLagSeconds, probeIntervalMs: 60_000, logger: quiet },
    );
    opened.push(replicas);
    return replicas;
  }

  it('names a replica host:port/database, without its password', () => {
    expect(replicaName('postgres://u:secret@db.example:6432/docqa')).to.equal('db.example:6432/docqa');
    expect(replicaName('postgresql://u:secret@db/docqa')).to.equal('db:5432/docqa');
  });

  it('reads from the primary when no replica is configured', async () => {
    const primary = countingPrimary(primaryPool);
    const replicas = replicasOf(primary, []);
    await replicas.start();
    expect((await replicas.query<{ one: number }>('select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
    expect(primary.seen).to.have.length(1);
    expect(replicas.replicas()).to.deep.equal([]);
  });

  it('takes turns between healthy replicas and leaves the primary alone', async () => {
    const [a, b] = [await proxyTo(primaryUrl as string), await proxyTo(primaryUrl as string)];
    try {
      const primary = countingPrimary(primaryPool);
      const replicas = replicasOf(primary, [
        withPort(primaryUrl as string, a.port),
        withPort(primaryUrl as string, b.port),
      ]);
      await replicas.start();
      expect(replicas.replicas().map((replica) => replica.status)).to.deep.equal(['up', 'up']);
      const ports = new Set<number>();
      for (let i = 0; i < 4; i++) {
        const { rows } = await replicas.query<{ port: number }>('select inet_client_port() as port');
        ports.add(rows[0]?.port as number);
      }
      expect(primary.seen).to.have.length(0);
      expect(ports.size).to.be.at.least(2); // connections of both pools
    } finally {
      a.kill();
      b.kill();
    }
  });

  it('skips a replica that does not answer; a read whose replica died under it is retried on the primary', async () => {
    const proxy = await proxyTo(primaryUrl as string);
    const primary = countingPrimary(primaryPool);
    const replicas = replicasOf(primary, [
      'postgres://docqa:docqa@127.0.0.1:1/none',
      withPort(primaryUrl as string, proxy.port),
    ]);
    await replicas.start();
    expect(replicas.replicas().map((replica) => replica.status)).to.deep.equal(['down', 'up']);
    await replicas.query('select 1');
    expect(primary.seen).to.have.length(0);

    proxy.kill();
    const { rows } = await replicas.query<{ one: number }>('select 1 as one');
    expect(rows).to.deep.equal([{ one: 1 }]);
    expect(primary.seen).to.deep.equal(['select 1 as one']);
    expect(replicas.replicas().map((replica) => replica.status)).to.deep.equal(['down', 'down']);
  });

  it('passes a wrong statement on as its error, not as a reason to ask the primary', async () => {
    const proxy = await proxyTo(primaryUrl as string);
    try {
      const primary = countingPrimary(primaryPool);
      const replicas = replicasOf(primary, [withPort(primaryUrl as string, proxy.port)]);
      await replicas.start();
      const error = await replicas.query('select * from no_such_table').catch((failure: unknown) => failure);
      expect((error as { code?: string }).code).to.equal('42P01');
      expect(primary.seen).to.have.length(0);
      expect(replicas.replicas()[0]?.status).to.equal('up');
    } finally {
      proxy.kill();
    }
  });

  it('skips a streaming replica further behind than the maximum lag until it catches up', async function () {
    const replicaUrl = withPort(primaryUrl as string, replicaPort);
    const admin = new pg.Client({ connectionString: replicaUrl });
    try {
      await admin.connect();
    } catch {
      this.skip(); // no streaming replica on 5433 (scripts/ci/install-postgres.sh makes one)
    }
    try {
      const primary = countingPrimary(primaryPool);
      const replicas = replicasOf(primary, [replicaUrl], 1);
      await replicas.start();
      expect(replicas.replicas()[0]).to.include({ status: 'up' });
      // Replay stops while the primary writes: what the replica received waits, and its age grows.
      await admin.query('select pg_wal_replay_pause()');
      await primaryPool.query('create temporary table lag_marker (id int); drop table lag_marker');
      await primaryPool.query('select txid_current()');
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await replicas.probe();
      const lagging = replicas.replicas()[0];
      expect(lagging?.status).to.equal('lagging');
      expect(lagging?.lagSeconds).to.be.greaterThan(1);
      await replicas.query('select 2');
      expect(primary.seen).to.deep.equal(['select 2']);

      await admin.query('select pg_wal_replay_resume()');
      for (let i = 0; i < 20 && replicas.replicas()[0]?.status !== 'up'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await replicas.probe();
      }
      expect(replicas.replicas()[0]).to.include({ status: 'up' });
    } finally {
      await admin.query('select pg_wal_replay_resume()').catch(() => undefined);
      await admin.end().catch(() => undefined);
    }
  });
});
