import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { SignInThrottle } from './sign-in-throttle.js';

const limits = {
  accountFailures: 5,
  accountTotalFailures: 100,
  clientFailures: 20,
  maxWaitSeconds: 900,
  accountTotalMaxWaitSeconds: 60,
  unsettledSeconds: 10,
};
const waitOf = (throttle: SignInThrottle, attempt: { account: string | null; client: string }, now: number): number => {
  try {
    throttle.check(attempt, now);
    return 0;
  } catch (error) {
    expect(DocqaError.is(error, 'rate_limited')).to.equal(true);
    return Number((error as DocqaError).headers['Retry-After']);
  }
};

describe('sign-in throttle', () => {
  it('refuses guesses sent at once beyond the allowance before any is hashed, and lets them go once settled', () => {
    const throttle = new SignInThrottle(limits);
    const attempt = { account: 'admin', client: '203.0.113.7' };
    // Five guesses under way together, none settled yet: a sixth would exceed the allowance if all fail.
    for (let i = 0; i < 5; i++) throttle.begin(attempt, 0);
    expect(waitOf(throttle, attempt, 0)).to.equal(1);
    expect(() => throttle.begin(attempt, 0)).to.throw(DocqaError);
    // Another account from another client is not held back.
    expect(waitOf(throttle, { account: 'reader', client: '198.51.100.9' }, 0)).to.equal(0);
    // The five succeed (the owner, five tabs): nothing is under way and nothing failed.
    for (let i = 0; i < 5; i++) throttle.succeeded(attempt);
    expect(waitOf(throttle, attempt, 0)).to.equal(0);
    // An attempt never settled (its request failed on the way) stops counting after a while.
    for (let i = 0; i < 5; i++) throttle.begin(attempt, 0);
    expect(waitOf(throttle, attempt, 0)).to.equal(1);
    expect(waitOf(throttle, attempt, 60_000)).to.equal(0);
  });

  it('stops counting a sign-in that never settled after unsettledSeconds', () => {
    const throttle = new SignInThrottle({ ...limits, unsettledSeconds: 3 });
    const attempt = { account: 'admin', client: '203.0.113.7' };
    for (let i = 0; i < 5; i++) throttle.begin(attempt, 0);
    expect(waitOf(throttle, attempt, 2_999)).to.equal(1);
    expect(waitOf(throttle, attempt, 3_000)).to.equal(0);
  });

  it('lets an account fail five times from a client, then doubles the wait, up to the cap', () => {
    const throttle = new SignInThrottle(limits);
    const attempt = { account: 'admin', client: '203.0.113.7' };
    let now = 0;
    const waits: number[] = [];
    for (let i = 0; i < 16; i++) {
      expect(waitOf(throttle, attempt, now)).to.equal(0);
      throttle.failed(attempt, now);
      waits.push(waitOf(throttle, attempt, now));
      now += waits.at(-1)! * 1000;
    }
    expect(waits).to.deep.equal([0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
  });

  it('keeps the owner signing in from elsewhere while one client guesses, and a success clears that client', () => {
    const throttle = new SignInThrottle(limits);
    const attacker = { account: 'admin', client: '198.51.100.1' };
    for (let i = 0; i < 8; i++) throttle.failed(attacker, 0);
    expect(waitOf(throttle, attacker, 0)).to.be.greaterThan(0);
    expect(waitOf(throttle, { account: 'admin', client: '192.0.2.44' }, 0)).to.equal(0);
    const owner = { account: 'admin', client: '192.0.2.44' };
    for (let i = 0; i < 4; i++) throttle.failed(owner, 0);
    throttle.succeeded(owner);
    throttle.failed(owner, 0);
    expect(waitOf(throttle, owner, 0)).to.equal(0);
  });

  it('slows a guess spread over many clients, but never keeps the account out for more than a minute', () => {
    const throttle = new SignInThrottle(limits);
    for (let i = 0; i < 130; i++)
      throttle.failed({ account: 'admin', client: `10.0.${Math.floor(i / 4)}.${i % 4}` }, 0);
    const wait = waitOf(throttle, { account: 'admin', client: '192.0.2.44' }, 0);
    expect(wait).to.equal(60);
  });

  it('limits one client across accounts, and forgets counts after a quiet stretch', () => {
    const throttle = new SignInThrottle(limits);
    for (let i = 0; i < 21; i++) throttle.failed({ account: `user${i}`, client: '198.51.100.9' }, 0);
    expect(waitOf(throttle, { account: 'someone-else', client: '198.51.100.9' }, 0)).to.equal(1);
    const later = 2 * 900 * 1000 + 1;
    throttle.failed({ account: 'x', client: '198.51.100.9' }, later);
    expect(waitOf(throttle, { account: 'y', client: '198.51.100.9' }, later)).to.equal(0);
  });
});
