import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { definePreset } from '@docqa/plugin-api';
import { createTemporaryDatabase, testSecrets } from '@docqa/kernel/testing';
import { startServer, type RunningServer } from '../server.js';
import { standardPreset } from '../presets/standard.js';
import { licenseStandIn } from '../testing/license-stand-in.js';
import { withoutLicenseGate } from '../testing/standard-with-license.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bigFiles = 200;

/** `count` text files of about `kilobytes` each, of distinct content. */
function writeFiles(dir: string, count: number, kilobytes: number): void {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const paragraph = `Paragraph of file ${i} in ${path.basename(dir)}: ${Array.from({ length: 60 }, (_, w) => `term${(i + w * 31) % 1009}`).join(' ')}.\n\n`;
    fs.writeFileSync(
      path.join(dir, `file-${i}.txt`),
      paragraph.repeat(Math.ceil((kilobytes * 1024) / paragraph.length)),
    );
  }
}

/*
 * PostgreSQL only. On the embedded database every query waits for its one connection, so the small
 * source's sync itself waits behind the big source's indexing transactions and queues its documents
 * late; what this tests is the ingest queue, which kernel/src/jobs/pgboss-jobs.test.ts also covers on
 * the embedded database.
 */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres(
  `fair scheduling of ingest jobs between sources (through the real sync and ingest)${process.env.TEST_DATABASE_URL ? '' : ' (skipped: set TEST_DATABASE_URL)'}`,
  function () {
    this.timeout(300_000);
    let server: RunningServer;
    let dataDir: string;
    let drop: (() => Promise<void>) | undefined;

    before(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-fairness-'));
      const database = await createTemporaryDatabase(process.env.TEST_DATABASE_URL as string);
      drop = database.drop;
      const unlimited = licenseStandIn(() => ({ plan: 'ENTERPRISE' }));
      server = await startServer({
        env: {
          ...testSecrets,
          DOCQA_DATA_DIR: dataDir,
          DOCQA_SECRETS_DIR: dataDir,
          LOG_LEVEL: 'ERROR',
          CONNECTOR_ALLOWED_PATHS: dataDir,
          DATABASE_URL: database.url,
        },
        cwd: dataDir,
        presets: {
          standard: definePreset({
            id: 'standard',
            description: 'standard + license',
            plugins: (context) => [...withoutLicenseGate(standardPreset.plugins(context)), { plugin: unlimited }],
          }),
        },
        port: 0,
        host: '127.0.0.1',
      });
    });
    after(async () => {
      await server?.stop();
      await drop?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const statusCounts = async (sourceId: string) => {
      const { rows } = await server.kernel.db.query<{ indexed: number; total: number }>(
        `select count(*) filter (where status = 'indexed')::int as indexed, count(*)::int as total from document where source_id = $1`,
        [sourceId],
      );
      return rows[0] as { indexed: number; total: number };
    };
    const syncOf = async (name: string, dir: string) => {
      const { sources, syncs } = server.services;
      const source = await sources.create('connector', {
        name,
        type: 'filesystem',
        config: { path: dir },
        enabled: true,
      });
      return { id: source.id, job: await syncs.start(source, 'scan') };
    };
    /** Where things stand, for a failure's message: each source's documents and its sync job. */
    const situation = async (sources: ReadonlyArray<{ id: string; job: string }>) =>
      JSON.stringify(
        await Promise.all(
          sources.map(async ({ id, job }) => {
            const info = await server.kernel.jobs.get('sync', job);
            return { ...(await statusCounts(id)), sync: info && { state: info.state, output: info.output } };
          }),
        ),
      );
    const until = async (what: string, condition: () => Promise<boolean>, explain: () => Promise<string>) => {
      const deadline = Date.now() + 120_000;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`${what}: not within two minutes; ${await explain()}`);
        await sleep(50);
      }
    };
    const syncing = async (jobId: string) =>
      ['queued', 'running'].includes((await server.kernel.jobs.get('sync', jobId))?.state ?? '');
    const finished = async (jobId: string) => {
      for (;;) {
        const job = await server.kernel.jobs.get('sync', jobId);
        if (job && !['queued', 'running'].includes(job.state)) return job;
        await sleep(100);
      }
    };

    it("a small source's documents are indexed while a big source's backlog is still far from done", async () => {
      // Big files index slower than they sync: the big source's ingest jobs pile up while it syncs.
      writeFiles(path.join(dataDir, 'big'), bigFiles, 96);
      writeFiles(path.join(dataDir, 'small'), 5, 1);
      const big = await syncOf('Big', path.join(dataDir, 'big'));
      // Stops early when the sync ends before that backlog: the expectation below then says how.
      let backlog = 0;
      await until(
        'a backlog of 40 big documents',
        async () => {
          const { indexed, total } = await statusCounts(big.id);
          backlog = total - indexed;
          return backlog >= 40 || !(await syncing(big.job));
        },
        () => situation([big]),
      );
      expect(backlog, `the big source's backlog; ${await situation([big])}`).to.be.at.least(40);

      const small = await syncOf('Small', path.join(dataDir, 'small'));
      await until(
        "the small source's 5 documents indexed",
        async () => (await statusCounts(small.id)).indexed === 5,
        () => situation([big, small]),
      );
      // The big source's documents queued before the small source's: first in, first out would
      // have indexed every one of them first.
      const { rows } = await server.kernel.db.query<{ ahead: number; waiting: number }>(
        `select count(*)::int as ahead, count(*) filter (where status <> 'indexed')::int as waiting
         from document where source_id = $1 and created_at < (select min(created_at) from document where source_id = $2)`,
        [big.id, small.id],
      );
      const { ahead, waiting } = rows[0] as { ahead: number; waiting: number };
      expect(ahead - waiting, 'queued before the small source; indexed').to.be.at.least(1);
      expect(waiting, `of the ${ahead} big documents queued before the small source, still waiting`).to.be.at.least(20);

      expect((await finished(big.job)).state).to.equal('succeeded');
      await until(
        `all ${bigFiles} big documents indexed`,
        async () => (await statusCounts(big.id)).indexed === bigFiles,
        () => situation([big]),
      );
    });
  },
);
