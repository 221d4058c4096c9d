import { expect } from 'chai';
import { DocqaError, type AuditEvent } from '@docqa/plugin-api';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { identityTokens, type IdentityService } from './contract.js';
import { identityModule } from './index.js';

describe('identity module: failed sign-ins are audited', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let identity: IdentityService;
  const audited: AuditEvent[] = [];

  before(async () => {
    kernel = await startTestModules({
      modules: [identityModule],
      env: { DEFAULT_ADMIN_USER: 'root', DEFAULT_ADMIN_PASSWORD: 'a long root password' },
      audit: { record: async (event) => void audited.push(event) },
    });
    identity = kernel.resolve(identityTokens.service);
  });
  after(() => kernel.dispose());

  it('records a wrong password and an unknown user as auth.login failures, with the address', async () => {
    audited.length = 0;
    for (const username of ['root', 'ghost']) {
      const refused = await identity
        .login(username, 'not the password', '203.0.113.9')
        .catch((error: unknown) => error);
      expect(DocqaError.is(refused, 'invalid_credentials')).to.equal(true);
    }
    const root = await identity.users.byUsername('root');
    expect(audited.map(({ type, outcome, ip, target, actor }) => ({ type, outcome, ip, target, actor }))).to.deep.equal(
      [
        {
          type: 'auth.login',
          outcome: 'failure',
          ip: '203.0.113.9',
          target: 'root',
          actor: { id: root!.id, username: 'root' },
        },
        { type: 'auth.login', outcome: 'failure', ip: '203.0.113.9', target: 'ghost', actor: null },
      ],
    );
  });
});
