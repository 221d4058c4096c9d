import { expect } from 'chai';
import { tokens } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { auditTokens, type AuditLog } from '../audit/contract.js';
import { chatTokens, type Conversations } from '../chat/contract.js';
import { retentionTokens } from './contract.js';
import { retentionModule } from './index.js';

/** The two stores the sweep deletes from, as their modules answer it; each records the age it was given. */
function recordingStores() {
  const asked: { conversations: number[]; audit: number[] } = { conversations: [], audit: [] };
  const conversations = {
    purgeOlderThan: async (days: number) => (asked.conversations.push(days), 3),
  } as unknown as Conversations;
  const audit = { purgeOlderThan: async (days: number) => (asked.audit.push(days), 5) } as unknown as AuditLog;
  return { asked, conversations, audit };
}

describe('retention module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel | undefined;
  afterEach(async () => {
    await kernel?.dispose();
    kernel = undefined;
  });

  const start = async (env: Record<string, string>) => {
    const stores = recordingStores();
    kernel = await startTestModules({
      modules: [retentionModule],
      provide: [provide(chatTokens.conversations, stores.conversations), provide(auditTokens.log, stores.audit)],
      env,
    });
    return stores;
  };
  const cronEntries = async () =>
    (await kernel!.db.query<{ name: string }>(`select name from pgboss.schedule where name = 'retention_sweep'`)).rows;

  it('sweeps with the ages the settings hold at each run, and schedules itself daily', async () => {
    const { asked } = await start({
      RETENTION_SWEEPS_ENABLED: 'true',
      RAG_CONVERSATION_MAX_AGE_DAYS: '30',
      RAG_AUDIT_RETENTION_DAYS: '400',
    });
    expect(await cronEntries()).to.have.length(1);
    const sweep = kernel!.resolve(retentionTokens.sweep);
    const result = await sweep.run();
    expect(result).to.include({ conversations_deleted: 3, audit_entries_deleted: 5 });
    expect(result.jobs_deleted).to.be.a('number');
    await kernel!.resolve(tokens.settings).set({ RAG_CONVERSATION_MAX_AGE_DAYS: '7' }, 'test');
    await sweep.run();
    expect(asked).to.deep.equal({ conversations: [30, 7], audit: [400, 400] });
  });

  it('deletes the job history that ended over JOB_HISTORY_RETENTION_DAYS ago, and nothing else', async () => {
    await start({ JOB_HISTORY_RETENTION_DAYS: '10' });
    const jobs = kernel!.jobs;
    await jobs.createQueue('retention_history');
    const [old, recent] = [await jobs.send('retention_history', {}), await jobs.send('retention_history', {})];
    // Queued long ago and still waiting: history only ends when the job does.
    const waiting = await jobs.send('retention_history', {}, { startAfterSeconds: 3600 });
    await jobs.work('retention_history', async () => ({ ok: true }));
    const succeeded = async () =>
      (await jobs.list({ queues: ['retention_history'], states: ['succeeded'], limit: 10, offset: 0 })).total;
    for (const deadline = Date.now() + 30_000; (await succeeded()) < 2;) {
      if (Date.now() > deadline) throw new Error('the two jobs did not finish');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const age = `update pgboss.job
      set completed_on = now() - make_interval(days => $2), created_on = now() - make_interval(days => $2)
      where id = $1`;
    await kernel!.db.query(age, [old, 11]);
    await kernel!.db.query(age, [recent, 9]);
    await kernel!.db.query('update pgboss.job set created_on = now() - make_interval(days => 20) where id = $1', [
      waiting,
    ]);

    const result = await kernel!.resolve(retentionTokens.sweep).run();
    expect(result.jobs_deleted).to.equal(1);
    expect(await jobs.get('retention_history', old)).to.equal(null);
    expect((await jobs.get('retention_history', recent))?.state).to.equal('succeeded');
    expect((await jobs.get('retention_history', waiting))?.state).to.equal('queued');
  });

  it('schedules nothing with RETENTION_SWEEPS_ENABLED off', async () => {
    await start({ RETENTION_SWEEPS_ENABLED: 'false' });
    expect(await cronEntries()).to.deep.equal([]);
  });
});
