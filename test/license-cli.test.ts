import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { baseEnv, runCli } from './support/cli.js';

describe('docqa license (end to end)', function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-e2e-license-'));
  const keys = path.join(dir, 'keys');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  // One round trip through the real command; the refusals are covered by packages/server/src/cli/license.test.ts.
  it('keygen writes a key pair; sign prints a key that inspect verifies with LICENSE_PUBLIC_KEY_FILE, and not with the vendor key', async () => {
    const made = await runCli(['license', 'keygen', '--out', 'keys'], { cwd: dir, env: baseEnv() });
    expect(made.code, made.stderr).to.equal(0);
    expect(fs.statSync(path.join(keys, 'license-private.pem')).mode & 0o777).to.equal(0o600);

    const signed = await runCli(
      [
        'license',
        'sign',
        '--private-key',
        'keys/license-private.pem',
        '--plan',
        'enterprise',
        '--licensee',
        'Acme Corp',
        '--expires',
        '2099-12-31',
        '--documents',
        '5000',
        '--storage-gb',
        '50',
        '--id',
        'lic-e2e',
      ],
      { cwd: dir, env: baseEnv() },
    );
    expect(signed.code, signed.stderr).to.equal(0);
    const key = signed.stdout.trim();
    expect(key.split('.')).to.have.length(3);
    fs.writeFileSync(path.join(dir, 'acme.key'), `${key}\n`);

    const checked = await runCli(['license', 'inspect', 'acme.key'], {
      cwd: dir,
      env: baseEnv({ LICENSE_PUBLIC_KEY_FILE: path.join(keys, 'license-public.pem') }),
    });
    expect(checked.code, checked.stdout + checked.stderr).to.equal(0);
    const payload = JSON.parse(checked.stdout.slice(0, checked.stdout.indexOf('\n}') + 2));
    expect(payload).to.deep.include({
      plan: 'ENTERPRISE',
      licensee: 'Acme Corp',
      id: 'lic-e2e',
      exp: Date.UTC(2099, 11, 31, 23, 59, 59) / 1000,
      limits: { documents: 5000, storage_gb: 50 },
    });
    expect(checked.stdout).to.include('Signature: valid (checked with LICENSE_PUBLIC_KEY_FILE');

    const vendor = await runCli(['license', 'inspect', key], { cwd: dir, env: baseEnv() });
    expect(vendor.code).to.equal(1);
    expect(vendor.stdout).to.include('checked with the built-in vendor key').and.include('signature does not verify');
  });
});
