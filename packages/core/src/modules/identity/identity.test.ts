import { expect } from 'chai';
import { DocqaError, type AuditEvent } from '@docqa/plugin-api';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { apiKeyPrefix, identityTokens, type IdentityService, type Principal } from './contract.js';
import { identityModule } from './index.js';

describe('identity module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let identity: IdentityService;
  let root: Principal;
  const audited: AuditEvent[] = [];

  before(async () => {
    kernel = await startTestModules({
      modules: [identityModule],
      env: { DEFAULT_ADMIN_USER: 'root', DEFAULT_ADMIN_PASSWORD: 'a long root password' },
      audit: { record: async (event) => void audited.push(event) },
    });
    identity = kernel.resolve(identityTokens.service);
    const admin = await identity.users.byUsername('root');
    root = { userId: admin!.id, username: 'root', role: 'admin' };
  });
  after(() => kernel.dispose());

  it('makes the default admin at start, signs in with its password and refuses a wrong one', async () => {
    const pair = await identity.login('root', 'a long root password');
    expect(pair).to.have.property('access_token').that.is.a('string');
    const claims = identity.tokens.verify((pair as { access_token: string }).access_token, 'access');
    expect(claims.sub).to.equal(root.userId);
    const wrong = await identity.login('root', 'not the password').catch((error: unknown) => error);
    expect(DocqaError.is(wrong, 'invalid_credentials')).to.equal(true);
  });

  it("audits the default admin's creation as user.create, with no actor since no one signed in", () => {
    const created = audited.filter((event) => event.type === 'user.create' && event.target === root.userId);
    expect(created).to.deep.equal([
      {
        type: 'user.create',
        actor: null,
        ip: null,
        target: root.userId,
        outcome: 'success',
        details: { username: 'root', role: 'admin', default_admin: true },
      },
    ]);
  });

  it('creates a user, whose API key acts as that user and stops working when the user is deleted', async () => {
    const viewer = await identity.createUser(root, undefined, {
      username: 'vera',
      password: 'another long password',
      role: 'viewer',
      email: null,
    });
    const principal: Principal = { userId: viewer.id, username: 'vera', role: 'viewer' };
    const tooMuch = await identity.apiKeys
      .create(principal, { name: 'cli', scopes: ['write'], expiresInDays: null }, null)
      .catch((error: unknown) => error);
    expect(DocqaError.is(tooMuch)).to.equal(true);
    const created = await identity.apiKeys.create(
      principal,
      { name: 'cli', scopes: ['read'], expiresInDays: 30 },
      null,
    );
    expect(created.key.startsWith(apiKeyPrefix)).to.equal(true);
    expect(await identity.apiKeys.authenticate(created.key)).to.include({ userId: viewer.id, role: 'viewer' });
    await identity.deleteUser(root, undefined, viewer.id);
    const after = await identity.apiKeys.authenticate(created.key).catch((error: unknown) => error);
    expect(DocqaError.is(after, 'unauthorized')).to.equal(true);
  });
});
