import { expect } from 'chai';
import { DocqaError, type AuditEvent } from '@docqa/plugin-api';
import { startTestModules, type TestKernel } from '@docqa/kernel/testing';
import { createLicenseEd25519Plugin, generateLicenseKeyPair, signLicense } from '@docqa/plugin-license-ed25519';
import { licenseModule } from './index.js';
import { licenseTokens, type LicenseService } from './contract.js';

const admin = { userId: 'u-1', username: 'admin', role: 'admin' as const };
const vendor = generateLicenseKeyPair();
const stranger = generateLicenseKeyPair();

function key(privateKeyPem: string, id: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signLicense(privateKeyPem, { plan: 'PRO', licensee: 'Acme Corp', id, iat: now - 60, exp: now + 86_400 });
}

describe('license module (without the HTTP server)', function () {
  this.timeout(60_000);
  let kernel: TestKernel | null = null;
  const audited: AuditEvent[] = [];
  const start = async (withGate: boolean, initialKey?: string): Promise<LicenseService> => {
    const options = { publicKey: vendor.publicKeyPem, ...(initialKey ? { initialKey } : {}) };
    const gate = { plugin: createLicenseEd25519Plugin(), options };
    kernel = await startTestModules({
      modules: [licenseModule],
      plugins: withGate ? [gate] : [],
      audit: { record: async (event) => void audited.push(event) },
    });
    return kernel.resolve(licenseTokens.service);
  };

  afterEach(async () => {
    await kernel?.dispose();
    kernel = null;
    audited.length = 0;
  });

  it('runs on FREE without a license gate, and refuses to apply a key', async () => {
    const license = await start(false);
    expect(license.plan()).to.equal('FREE');
    expect(license.limits().documents).to.equal(100);
    const error = await license
      .apply(admin, '127.0.0.1', key(vendor.privateKeyPem, 'x'))
      .catch((caught: unknown) => caught);
    expect(DocqaError.is(error, 'conflict'), String(error)).to.equal(true);
    expect(audited).to.deep.equal([]);
  });

  it('applies a key through the gate and audits it; a forged one is refused and audited with what it claims', async () => {
    const license = await start(true);
    const forged = await license
      .apply(admin, '10.0.0.1', key(stranger.privateKeyPem, 'lic-forged'))
      .catch((caught: unknown) => caught);
    expect(DocqaError.is(forged, 'validation_failed'), String(forged)).to.equal(true);
    expect((forged as DocqaError).errors?.[0]?.field).to.equal('body.license_key');
    expect(license.plan()).to.equal('FREE');

    const state = await license.apply(admin, '10.0.0.1', key(vendor.privateKeyPem, 'lic-1'));
    expect(state.plan).to.equal('PRO');
    expect(license.plan()).to.equal('PRO');
    const view = license.describe({ documents: 3, bytes: 1200 });
    expect(view).to.include({ plan: 'PRO', licensee: 'Acme Corp', license_id: 'lic-1', lapsed: false });
    expect(view.usage).to.deep.equal({ documents: 3, storage_bytes: 1200 });

    expect(audited.map((event) => [event.type, event.outcome, event.target])).to.deep.equal([
      ['license.apply', 'failure', 'lic-forged'],
      ['license.apply', 'success', 'lic-1'],
    ]);
    expect(audited[0]?.details).to.include({ plan: 'PRO', licensee: 'Acme Corp', license_id: 'lic-forged' });
    expect(audited[0]?.actor).to.deep.equal({ id: 'u-1', username: 'admin' });
  });

  it('audits a license the configuration applied at start (LICENSE_KEY), without an actor', async () => {
    const license = await start(true, key(vendor.privateKeyPem, 'lic-start'));
    expect(license.plan()).to.equal('PRO');
    expect(audited.map((event) => [event.type, event.actor, event.target])).to.deep.equal([
      ['license.apply', null, 'lic-start'],
    ]);
    expect(audited[0]?.details).to.deep.include({ source: 'LICENSE_KEY', plan: 'PRO' });
  });
});
