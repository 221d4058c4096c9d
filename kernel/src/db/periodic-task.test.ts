import { expect } from 'chai';
import { startPeriodicTask } from './periodic-task.js';

describe('periodic task', () => {
  it('runs once at a time: a call during a run gets that run', async () => {
    let runs = 0;
    let release!: () => void;
    const task = startPeriodicTask(
      async () => {
        runs += 1;
        await new Promise<void>((resolve) => (release = resolve));
        return runs;
      },
      3_600_000,
      () => undefined,
    );
    const first = task.runOnce();
    const second = task.runOnce();
    expect(second).to.equal(first);
    release();
    expect(await first).to.equal(1);
    const third = task.runOnce();
    release();
    expect(await third).to.equal(2);
    await task.stop();
  });

  it('stop() tells the run under way, waits for its end, and reports no error of it', async () => {
    const seen: boolean[] = [];
    let release!: () => void;
    const errors: unknown[] = [];
    const task = startPeriodicTask(
      async (stopping) => {
        seen.push(stopping());
        await new Promise<void>((resolve) => (release = resolve));
        seen.push(stopping());
        throw new Error('ended by the stop');
      },
      3_600_000,
      (error) => errors.push(error),
    );
    const run = task.runOnce().catch(() => 'rejected');
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).to.equal(false);
    release();
    await stopping;
    expect(seen).to.deep.equal([false, true]);
    expect(await run).to.equal('rejected');
    expect(errors).to.deep.equal([]);
  });

  it('runs on its timer and passes a failure to onError', async () => {
    const errors: unknown[] = [];
    const task = startPeriodicTask(
      async () => {
        throw new Error('no connection');
      },
      10,
      (error) => errors.push(error),
    );
    // Nobody calls runOnce: only the timer can run it.
    while (errors.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await task.stop();
    expect((errors[0] as Error).message).to.equal('no connection');
  });
});
