import { expect } from 'chai';
import { OneAtATime } from './one-at-a-time.js';

describe('OneAtATime', () => {
  it('starts each task when the one before has ended, in order, also after a failure', async () => {
    const gate = new OneAtATime();
    const events: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running += 1;
        events.push(`start ${name} (${running} running)`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([gate.run(task('a')), gate.run(task('b', true)), gate.run(task('c'))]);
    expect(
      results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
    ).to.deep.equal(['a', 'b', 'c']);
    expect(results[1]!.status).to.equal('rejected');
    expect(events).to.deep.equal([
      'start a (1 running)',
      'end a',
      'start b (1 running)',
      'end b',
      'start c (1 running)',
      'end c',
    ]);
  });
});
