import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import {
  definePlugin,
  DocqaError,
  providerTokens,
  tokens,
  type EmailMessage,
  type JobContext,
} from '@docqa/plugin-api';
import { startTestKernel, type TestKernel } from './testing/test-kernel.js';

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

// A real plugin for the lifecycle checks: records what it was given and when it was stopped.
const sent: EmailMessage[] = [];
const events: string[] = [];
const recordingEmail = definePlugin({
  apiVersion: 1,
  kind: 'email',
  id: 'email-recording',
  configSchema: z.strictObject({ from: z.string().default('docqa@localhost') }),
  deps: { logger: tokens.logger, settings: tokens.settings },
  init({ options, onStop, deps }) {
    events.push(`init from=${options.from} log_level=${String(deps.settings.get('LOG_LEVEL'))}`);
    onStop(() => {
      events.push('stop');
    });
    return { send: async (message: EmailMessage) => void sent.push(message) };
  },
});

describe('kernel', function () {
  let kernel: TestKernel;
  before(async () => {
    kernel = await startTestKernel({
      plugins: [{ plugin: recordingEmail, instance: 'mailer', options: { from: 'ops@example.com' } }],
    });
  });
  after(async () => kernel?.dispose());

  it('starts plugins with validated options and core services, and registers them', async () => {
    expect(events[0]).to.equal('init from=ops@example.com log_level=WARNING');
    expect(kernel.plugins.instances).to.deep.equal([
      { instanceId: 'mailer', pluginId: 'email-recording', kind: 'email' },
    ]);
    await kernel.resolve(providerTokens.email).send({ to: 'a@b.c', subject: 's', text: 't' });
    expect(sent).to.have.length(1);
    expect(kernel.resolve(tokens.db)).to.equal(kernel.db);
  });

  it('applies migrations: the core tables exist', async () => {
    const { rows } = await kernel.db.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_name in ('runtime_setting', 'job_progress', 'docqa_migrations') order by 1`,
    );
    expect(rows.map((row) => row.name)).to.deep.equal(['docqa_migrations', 'job_progress', 'runtime_setting']);
  });

  it('rolls a transaction back when its work fails, keeping what was stored', async () => {
    await kernel.db.query('create table tx_probe (id int primary key)');
    await kernel.db.query('insert into tx_probe values (1)');
    const attempt = kernel.db.transaction(async (tx) => {
      await tx.query('insert into tx_probe values (2)');
      await tx.query('insert into tx_probe values (1)');
    });
    expect(
      await attempt.then(
        () => 'committed',
        () => 'rolled back',
      ),
    ).to.equal('rolled back');
    const { rows } = await kernel.db.query<{ id: number }>('select id from tx_probe order by id');
    expect(rows).to.deep.equal([{ id: 1 }]);
  });

  describe('runtime settings', () => {
    it('seeds every "seed" variable on first start', () => {
      const all = kernel.settings.all();
      expect(all).to.include({
        LOG_LEVEL: 'WARNING',
        ACCESS_TOKEN_EXPIRE_SECONDS: 900,
        RAG_MIN_CHUNK_LENGTH: 50,
        RAG_LOG_REDACT_QUERIES: true,
      });
      expect(Object.keys(all)).to.have.length(13);
    });

    it('changes apply at once and reach listeners', async () => {
      const seen: Array<Record<string, unknown>> = [];
      const off = kernel.settings.onChange((changed) => seen.push(changed));
      await kernel.settings.set({ ACCESS_TOKEN_EXPIRE_SECONDS: '600', RAG_QUERY_REWRITE_ENABLED: true }, 'test');
      off();
      expect(kernel.settings.get('ACCESS_TOKEN_EXPIRE_SECONDS')).to.equal(600);
      expect(seen).to.deep.equal([{ ACCESS_TOKEN_EXPIRE_SECONDS: 600, RAG_QUERY_REWRITE_ENABLED: true }]);
      const { rows } = await kernel.db.query<{ value: unknown; updated_by: string }>(
        `select value, updated_by from runtime_setting where key = 'ACCESS_TOKEN_EXPIRE_SECONDS'`,
      );
      expect(rows[0]).to.deep.equal({ value: 600, updated_by: 'test' });
    });

    it('refuses invalid values and non-settings, all listed, changing nothing', async () => {
      const attempt = kernel.settings.set({
        ACCESS_TOKEN_EXPIRE_SECONDS: 'soon',
        N_CTX: 10,
        NOPE: 1,
        RAG_MIN_CHUNK_LENGTH: 10,
      });
      const error = (await attempt.catch((e: unknown) => e)) as DocqaError;
      expect(error).to.be.instanceOf(DocqaError);
      expect(error.code).to.equal('validation_failed');
      expect(error.errors?.map((e) => e.field)).to.deep.equal(['ACCESS_TOKEN_EXPIRE_SECONDS', 'N_CTX', 'NOPE']);
      expect(kernel.settings.get('RAG_MIN_CHUNK_LENGTH')).to.equal(50);
    });
  });

  describe('jobs', () => {
    it('runs a job with progress and reports its outcome', async () => {
      await kernel.jobs.createQueue('test_echo');
      await kernel.jobs.work<{ word: string }>('test_echo', async (job) => {
        await job.progress(1, 2);
        await job.progress(2, 2);
        return { echoed: job.data.word };
      });
      const id = await kernel.jobs.send('test_echo', { word: 'hello' });
      await until(async () => (await kernel.jobs.get('test_echo', id))?.state === 'succeeded');
      const info = await kernel.jobs.get('test_echo', id);
      expect(info).to.deep.include({ state: 'succeeded', output: { echoed: 'hello' }, data: { word: 'hello' } });
      const { rows } = await kernel.db.query<{ done: number; total: number }>(
        'select done, total from job_progress where job_id = $1',
        [id],
      );
      expect(rows[0]).to.deep.equal({ done: 2, total: 2 });
    });

    it('cancelling a running job aborts its signal; cancelling a finished one is a conflict', async () => {
      await kernel.jobs.createQueue('test_slow', { heartbeatSeconds: 10 });
      let started = false;
      let abortedWith: unknown = null;
      await kernel.jobs.work('test_slow', async (job: JobContext<object>) => {
        started = true;
        await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }));
        abortedWith = job.signal.reason;
        job.signal.throwIfAborted();
      });
      const id = await kernel.jobs.send('test_slow', {});
      await until(() => started);
      await kernel.jobs.cancel('test_slow', id);
      await until(() => abortedWith !== null);
      expect((await kernel.jobs.get('test_slow', id))?.state).to.equal('cancelled');
      const again = (await kernel.jobs.cancel('test_slow', id).catch((e: unknown) => e)) as DocqaError;
      expect(again.code).to.equal('conflict');
      const unknown = (await kernel.jobs
        .cancel('test_slow', '00000000-0000-4000-8000-000000000000')
        .catch((e: unknown) => e)) as DocqaError;
      expect(unknown.code).to.equal('not_found');
    });

    it('keeps cron schedules in the database, in UTC', async () => {
      await kernel.jobs.createQueue('test_cron');
      await kernel.jobs.schedule('test_cron', 'nightly', '0 3 * * *', { scope: 'all' });
      const { rows } = await kernel.db.query<{ cron: string; timezone: string; key: string }>(
        `select cron, timezone, key from pgboss.schedule where name = 'test_cron'`,
      );
      expect(rows).to.deep.equal([{ cron: '0 3 * * *', timezone: 'UTC', key: 'nightly' }]);
      await kernel.jobs.unschedule('test_cron', 'nightly');
      expect((await kernel.db.query(`select 1 from pgboss.schedule where name = 'test_cron'`)).rowCount).to.equal(0);
    });
  });
});

describe('kernel lifecycle', function () {
  it('a graceful stop lets a running job finish, then stops plugins', async () => {
    events.length = 0;
    const kernel = await startTestKernel({ plugins: [{ plugin: recordingEmail }] });
    await kernel.jobs.createQueue('test_drain');
    let finished = false;
    let started = false;
    await kernel.jobs.work('test_drain', async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      finished = true;
    });
    await kernel.jobs.send('test_drain', {});
    await until(() => started);
    await kernel.dispose();
    expect(finished).to.equal(true);
    expect(events.at(-1)).to.equal('stop');
  });

  it('on restart, stored settings win over the environment (seed semantics)', async function () {
    if (process.env.TEST_DATABASE_URL) this.skip(); // covered by the embedded run: one data directory is the point
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-restart-'));
    const logs: string[] = [];
    const first = await startTestKernel({
      env: { DOCQA_DATA_DIR: dataDir, RAG_MIN_CHUNK_LENGTH: '80' },
      persistent: true,
    });
    await first.settings.set({ RAG_CONVERSATION_MAX_TURNS: 7 });
    await first.stop();
    const second = await startTestKernel({
      env: { DOCQA_DATA_DIR: dataDir, RAG_MIN_CHUNK_LENGTH: '20', LOG_LEVEL: 'WARNING' },
      persistent: true,
      logs,
    });
    try {
      expect(second.settings.get('RAG_MIN_CHUNK_LENGTH')).to.equal(80);
      expect(second.settings.get('RAG_CONVERSATION_MAX_TURNS')).to.equal(7);
      expect(logs.join('\n')).to.include(
        'RAG_MIN_CHUNK_LENGTH in the environment differs from the stored runtime setting',
      );
    } finally {
      await second.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
