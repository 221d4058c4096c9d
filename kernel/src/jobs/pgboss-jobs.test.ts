import { expect } from 'chai';
import { startTestKernel, type TestKernel } from '../testing/test-kernel.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(25);
  }
};

/** What a test handler saw: when each job of each group ran, and the most of one group at once. */
class Recorder {
  readonly ended = new Map<string, number[]>();
  readonly running = new Map<string, number>();
  readonly mostAtOnce = new Map<string, number>();

  async run(group: string, ms: number): Promise<void> {
    const now = (this.running.get(group) ?? 0) + 1;
    this.running.set(group, now);
    this.mostAtOnce.set(group, Math.max(now, this.mostAtOnce.get(group) ?? 0));
    await sleep(ms);
    this.running.set(group, (this.running.get(group) ?? 1) - 1);
    this.ended.set(group, [...(this.ended.get(group) ?? []), Date.now()]);
  }

  done(group: string): number {
    return this.ended.get(group)?.length ?? 0;
  }
}

describe('jobs: slots, groups and the job list', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  before(async () => {
    kernel = await startTestKernel();
  });
  after(async () => kernel?.dispose());

  it('one group holds at most groupConcurrency slots, so a later group runs beside it, not after it', async () => {
    const seen = new Recorder();
    await kernel.jobs.createQueue('test_fair');
    await kernel.jobs.work<{ group: string }>('test_fair', (job) => seen.run(job.data.group, 100), {
      concurrency: 3,
      groupConcurrency: 2,
    });
    for (let i = 0; i < 40; i++) await kernel.jobs.send('test_fair', { group: 'big' }, { group: 'big' });
    for (let i = 0; i < 3; i++) await kernel.jobs.send('test_fair', { group: 'small' }, { group: 'small' });
    await until(() => seen.done('big') === 40 && seen.done('small') === 3);

    const lastSmall = Math.max(...(seen.ended.get('small') ?? []));
    const bigDoneBefore = (seen.ended.get('big') ?? []).filter((time) => time <= lastSmall).length;
    // 40 jobs of 100 ms in two slots take two seconds; the small group's three need its own slot only.
    expect(bigDoneBefore, 'big jobs finished before the last small one').to.be.below(25);
    expect(seen.mostAtOnce.get('big')).to.equal(2);
  });

  it('groupConcurrency 1 never runs two jobs of one group at once, and other groups still run', async () => {
    const seen = new Recorder();
    await kernel.jobs.createQueue('test_one_each');
    await kernel.jobs.work<{ group: string }>('test_one_each', (job) => seen.run(job.data.group, 150), {
      concurrency: 2,
      groupConcurrency: 1,
    });
    for (const group of ['a', 'a', 'a', 'b']) await kernel.jobs.send('test_one_each', { group }, { group });
    await until(() => seen.done('a') === 3 && seen.done('b') === 1);
    expect(seen.mostAtOnce.get('a')).to.equal(1);
  });

  it('runs a backlog back to back instead of one job per slot per polling interval', async () => {
    const seen = new Recorder();
    await kernel.jobs.createQueue('test_backlog');
    await kernel.jobs.work('test_backlog', () => seen.run('all', 5), { concurrency: 2 });
    const started = Date.now();
    for (let i = 0; i < 60; i++) await kernel.jobs.send('test_backlog', {});
    await until(() => seen.done('all') === 60);
    // At one job per slot per second this would take 30 s.
    expect(Date.now() - started).to.be.below(10_000);
  });

  it('lists finished jobs only since finishedAfter, queued and running ones always; get still answers old ones', async () => {
    await kernel.jobs.createQueue('test_ttl');
    const old = await kernel.jobs.send('test_ttl', { n: 1 });
    const recent = await kernel.jobs.send('test_ttl', { n: 2 });
    await kernel.jobs.work('test_ttl', async () => ({ ok: true }));
    await until(
      async () =>
        (await kernel.jobs.list({ queues: ['test_ttl'], states: ['succeeded'], limit: 10, offset: 0 })).total === 2,
    );
    await kernel.db.query(`update pgboss.job set completed_on = now() - interval '2 days' where id = $1`, [old]);
    const queued = await kernel.jobs.send('test_ttl', { n: 3 }, { startAfterSeconds: 3600 });

    const listed = await kernel.jobs.list({
      queues: ['test_ttl'],
      finishedAfter: new Date(Date.now() - 24 * 3600 * 1000),
      limit: 10,
      offset: 0,
    });
    expect(listed.items.map((job) => job.id)).to.have.members([recent, queued]);
    expect(listed.total).to.equal(2);
    expect((await kernel.jobs.get('test_ttl', old))?.state).to.equal('succeeded');
  });
});
