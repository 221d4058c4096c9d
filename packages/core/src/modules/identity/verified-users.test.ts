import { expect } from 'chai';
import { VerifiedUsers, type VerifiedUser } from './verified-users.js';

const user = (tokenVersion: number): VerifiedUser => ({
  id: 'u1',
  username: 'viewer',
  role: 'viewer',
  token_version: tokenVersion,
  family_revoked: false,
});

/** A read the test ends when it wants, counting how often it was started. */
function controlledRead() {
  const resolvers: Array<(user: VerifiedUser | null) => void> = [];
  const read = () => new Promise<VerifiedUser | null>((resolve) => resolvers.push(resolve));
  return { read, resolvers };
}

describe('VerifiedUsers', () => {
  it('lets checks of one sign-in that miss together share one read', async () => {
    const verified = new VerifiedUsers(5000);
    const { read, resolvers } = controlledRead();
    const checks = Array.from({ length: 5 }, () => verified.load('u1', 'f1', read));
    // Another sign-in of the same user is read on its own.
    const other = verified.load('u1', 'f2', read);
    expect(resolvers).to.have.length(2);
    resolvers[0]?.(user(1));
    resolvers[1]?.(user(1));
    for (const found of await Promise.all(checks)) expect(found?.token_version).to.equal(1);
    expect((await other)?.token_version).to.equal(1);
  });

  it('never joins a read that started before the user was forgotten', async () => {
    const verified = new VerifiedUsers(5000);
    const { read, resolvers } = controlledRead();
    const before = verified.load('u1', 'f1', read);
    verified.forget('u1');
    const after = verified.load('u1', 'f1', read);
    expect(resolvers).to.have.length(2);
    resolvers[0]?.(user(1));
    resolvers[1]?.(user(2));
    expect((await before)?.token_version).to.equal(1);
    expect((await after)?.token_version).to.equal(2);
    expect(verified.get('u1', 'f1')?.token_version).to.equal(2);
  });
});
