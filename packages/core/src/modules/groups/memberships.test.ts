import { expect } from 'chai';
import { Memberships } from './memberships.js';

/** A read the test ends when it wants, counting how often it was started. */
function controlledRead() {
  const resolvers: Array<(groupIds: string[]) => void> = [];
  const read = () => new Promise<string[]>((resolve) => resolvers.push(resolve));
  return { read, resolvers };
}

describe('Memberships', () => {
  it('lets requests that miss together share one read', async () => {
    const memberships = new Memberships();
    const { read, resolvers } = controlledRead();
    const loads = Array.from({ length: 5 }, () => memberships.load('u1', read));
    expect(resolvers).to.have.length(1);
    resolvers[0]?.(['g1']);
    for (const groups of await Promise.all(loads)) expect(groups).to.deep.equal(['g1']);
  });

  it('never joins a read that started before the user was forgotten', async () => {
    const memberships = new Memberships();
    const { read, resolvers } = controlledRead();
    const before = memberships.load('u1', read);
    memberships.forget('u1');
    const after = memberships.load('u1', read);
    expect(resolvers).to.have.length(2);
    resolvers[0]?.(['old']);
    resolvers[1]?.(['new']);
    expect(await before).to.deep.equal(['old']);
    expect(await after).to.deep.equal(['new']);
    // The read from before the forget was not kept; the one after it was.
    expect(await memberships.load('u1', read)).to.deep.equal(['new']);
    expect(resolvers).to.have.length(2);
  });

  it('reads again after a failed read', async () => {
    const memberships = new Memberships();
    const failing = memberships.load('u1', () => Promise.reject(new Error('lost')));
    await failing.then(
      () => expect.fail('should fail'),
      (error: Error) => expect(error.message).to.equal('lost'),
    );
    expect(await memberships.load('u1', () => Promise.resolve(['g1']))).to.deep.equal(['g1']);
  });
});
