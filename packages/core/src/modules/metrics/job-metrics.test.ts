import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { JobActivity, JobRunEvent, UnfinishedJobCount } from '@docqa/plugin-api';
import { JobMetrics, jobKind, queueDepthTimeoutMs } from './job-metrics.js';

/** A jobs service whose count answers what the test says, and whose run events the test sends. */
function fakeJobs(count: () => Promise<UnfinishedJobCount[]>) {
  const listeners = new Set<(event: JobRunEvent) => void>();
  let counts = 0;
  const jobs: JobActivity = {
    onJobRun(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    countUnfinished() {
      counts += 1;
      return count();
    },
  };
  return {
    jobs,
    emit: (event: JobRunEvent) => listeners.forEach((listener) => listener(event)),
    counts: () => counts,
    listeners,
  };
}

describe('job metrics', () => {
  it('counts the queues once per scrape and reports both states of each', async () => {
    const fake = fakeJobs(async () => [
      { queue: 'ingest', queued: 3, running: 2 },
      { queue: '__pgboss__send-it', queued: 0, running: 0 },
    ]);
    const registry = new Registry();
    new JobMetrics(registry, fake.jobs);
    const text = await registry.metrics();
    expect(fake.counts()).to.equal(1);
    expect(text)
      .to.include('docqa_jobs{queue="ingest",state="queued"} 3')
      .and.include('docqa_jobs{queue="ingest",state="running"} 2');
    expect(text).to.include('docqa_job_queue_depth_up 1');
    expect(text).not.to.include('__pgboss__');
  });

  it('leaves the depth out and says so when the count fails or is slow, instead of stalling the scrape', async function () {
    this.timeout(10_000);
    let answer: () => Promise<UnfinishedJobCount[]> = async () => [{ queue: 'ingest', queued: 1, running: 0 }];
    const fake = fakeJobs(() => answer());
    const registry = new Registry();
    new JobMetrics(registry, fake.jobs);
    expect(await registry.metrics()).to.include('docqa_jobs{queue="ingest",state="queued"} 1');

    answer = () => new Promise(() => undefined); // a database that never answers
    const started = Date.now();
    const slow = await registry.metrics();
    expect(Date.now() - started).to.be.at.least(queueDepthTimeoutMs - 50);
    expect(slow).to.include('docqa_job_queue_depth_up 0');
    expect(slow).not.to.match(/^docqa_jobs\{/m); // no stale numbers from the scrape before

    answer = async () => {
      throw new Error('database down');
    };
    const failed = await registry.metrics();
    expect(failed).to.include('docqa_job_queue_depth_up 0');
    expect(failed).not.to.match(/^docqa_jobs\{/m);
  });

  it('records run events by kind and outcome, and stops listening when closed', async () => {
    const fake = fakeJobs(async () => []);
    const registry = new Registry();
    const metrics = new JobMetrics(registry, fake.jobs);
    fake.emit({ type: 'started', queue: 'sync', data: { kind: 'scan' } });
    fake.emit({ type: 'finished', queue: 'sync', data: { kind: 'scan' }, outcome: 'interrupted', seconds: 0.3 });
    const text = await registry.metrics();
    expect(text).to.include('docqa_jobs_started_total{kind="scan"} 1');
    expect(text).to.include('docqa_jobs_finished_total{kind="scan",outcome="interrupted"} 1');
    expect(text).to.include('docqa_job_duration_seconds_bucket{le="0.5",kind="scan",outcome="interrupted"} 1');
    metrics.close();
    expect(fake.listeners.size).to.equal(0);
  });

  it('names kinds as GET /api/jobs does, with a bounded set for sync jobs', () => {
    expect(jobKind('ingest', { documentId: 'x' })).to.equal('ingest');
    expect(jobKind('sync', { kind: 'sync_all' })).to.equal('sync_all');
    expect(jobKind('sync', {})).to.equal('sync');
    expect(jobKind('sync', { kind: 'anything-a-caller-made-up' })).to.equal('sync');
  });
});
