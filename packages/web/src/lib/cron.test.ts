import { describe, it } from 'mocha';
import { expect } from 'chai';
import { explainCron, nextRuns, parseCron } from './cron';

const reading = (expression: string) => {
  const result = explainCron(expression);
  return 'error' in result ? `error: ${result.error}` : result.reading;
};

describe('web: cron readings and next runs', () => {
  it('reads the common shapes', () => {
    expect(reading('*/15 * * * *')).to.equal('Every 15 minutes');
    expect(reading('0 * * * *')).to.equal('Every hour at minute 0');
    expect(reading('30 2 * * *')).to.equal('Every day at 02:30 UTC');
    expect(reading('0 3 * * 1-5')).to.equal('At 03:00 UTC, on Monday to Friday');
    expect(reading('0 0 1 * *')).to.equal('At 00:00 UTC, on day 1 of the month');
    expect(reading('0 6,18 * * SAT,sun')).to.equal('At 06:00 and 18:00 UTC, on Sunday and Saturday');
    expect(reading('@weekly')).to.equal('At 00:00 UTC, on Sunday');
    expect(reading('0 0 1 1,7 *')).to.equal('At 00:00 UTC, on day 1 of the month, in January and July');
  });

  it('names what is wrong', () => {
    expect(reading('* * *')).to.match(/five fields/);
    expect(reading('61 * * * *')).to.match(/minute 61 is outside/);
    expect(reading('0 0 * * funday')).to.match(/not a valid day of week/);
  });

  it('computes the next runs in UTC', () => {
    const from = new Date('2025-03-14T10:07:30Z'); // a Friday
    const iso = (expression: string, count: number) =>
      nextRuns(parseCron(expression), count, from).map((d) => d.toISOString());
    expect(iso('*/15 * * * *', 2)).to.deep.equal(['2025-03-14T10:15:00.000Z', '2025-03-14T10:30:00.000Z']);
    expect(iso('0 3 * * 1-5', 2)).to.deep.equal(['2025-03-17T03:00:00.000Z', '2025-03-18T03:00:00.000Z']);
    expect(iso('0 0 29 2 *', 1)).to.deep.equal(['2028-02-29T00:00:00.000Z']);
    // Both day fields restricted: either matches (the 1st, or any Sunday).
    expect(iso('0 12 1 * 0', 2)).to.deep.equal(['2025-03-16T12:00:00.000Z', '2025-03-23T12:00:00.000Z']);
    expect(iso('0 0 * * 7', 1)).to.deep.equal(['2025-03-16T00:00:00.000Z']);
  });
});
