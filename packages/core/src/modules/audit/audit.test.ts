import { expect } from 'chai';
import { DocqaError, type AuditService } from '@docqa/plugin-api';
import { provide, startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { licenseTokens, type LicenseService } from '../license/contract.js';
import { auditTokens } from './contract.js';
import { auditModule, databaseAuditRecorder } from './index.js';

describe('audit module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel;
  let recorder: AuditService;
  let plan: 'FREE' | 'ENTERPRISE' = 'ENTERPRISE';

  before(async () => {
    const license = { plan: () => plan } as LicenseService;
    kernel = await startTestModules({
      modules: [auditModule],
      provide: [provide(licenseTokens.service, license)],
      audit: ({ db, logger }) => (recorder = databaseAuditRecorder(db, logger, () => plan)),
    });
  });
  after(() => kernel.dispose());

  it('keeps what is recorded on ENTERPRISE, newest first, and nothing on FREE', async () => {
    const actor = { id: '7f1a0c8e-0000-4000-8000-000000000001', username: 'ada' };
    await recorder.record({ type: 'user.create', actor, target: 'bob', outcome: 'success' });
    await recorder.record({ type: 'auth.login', actor, outcome: 'failure', details: { reason: 'wrong password' } });
    plan = 'FREE';
    await recorder.record({ type: 'auth.login', actor, outcome: 'success' });
    plan = 'ENTERPRISE';
    const log = kernel.resolve(auditTokens.log);
    const all = await log.query({ limit: 10, offset: 0 });
    expect(all.total).to.equal(2);
    expect(all.items.map((entry) => [entry.type, entry.outcome])).to.deep.equal([
      ['auth.login', 'failure'],
      ['user.create', 'success'],
    ]);
    const byName = await log.query({ user: 'ada', type: 'user.create', limit: 10, offset: 0 });
    expect(byName.items.map((entry) => entry.target)).to.deep.equal(['bob']);
    expect((await log.get(all.items[0]!.id)).details).to.deep.equal({ reason: 'wrong password' });
    const missing = await log.get('7f1a0c8e-0000-4000-8000-00000000ffff').catch((error: unknown) => error);
    expect(DocqaError.is(missing, 'not_found')).to.equal(true);
  });

  it('verifies the chain; a purge never reaches entries inside the retention period, whatever it asks', async () => {
    const log = kernel.resolve(auditTokens.log);
    expect(await log.verify()).to.include({ valid: true, checked: 2 });
    expect(await log.purgeOlderThan(0)).to.equal(0);
    await recorder.record({ type: 'config.update', actor: null, target: 'branding', outcome: 'success' });
    const verified = await log.verify();
    expect(verified).to.include({ valid: true, checked: 3 });
    expect(verified.anchor.after_seq).to.equal(null);
  });
});
