import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runLicense } from './license.js';

/** `docqa license` called in process: each case's exit code, stdout and stderr. */
async function license(args: string[], cwd: string, env: Record<string, string> = {}, now = Date.UTC(2026, 0, 1)) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runLicense(args, {
    cwd,
    env: { DOCQA_SECRETS_DIR: '/nonexistent-secrets', ...env },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    now: () => now,
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('docqa license', function () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docqa-license-cli-'));
  const publicKeyFile = path.join(dir, 'keys', 'license-public.pem');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  before(async () => {
    expect((await license(['keygen', '--out', 'keys'], dir)).code).to.equal(0);
  });

  it('keygen never overwrites a key pair', async () => {
    const before = fs.readFileSync(path.join(dir, 'keys', 'license-private.pem'), 'utf8');
    const again = await license(['keygen', '--out', 'keys'], dir);
    expect(again.code).to.equal(2);
    expect(again.stderr).to.include('exists already');
    expect(fs.readFileSync(path.join(dir, 'keys', 'license-private.pem'), 'utf8')).to.equal(before);
  });

  it('sign defaults to 365 days and a random id; --days sets the validity; limits are carried', async () => {
    const signed = await license(
      ['sign', '--private-key', 'keys/license-private.pem', '--plan', 'PRO', '--licensee', 'Acme'],
      dir,
    );
    expect(signed.code, signed.stderr).to.equal(0);
    const payload = JSON.parse(Buffer.from(signed.stdout.split('.')[1] as string, 'base64url').toString());
    expect(payload).to.include({
      plan: 'PRO',
      licensee: 'Acme',
      iat: Date.UTC(2026, 0, 1) / 1000,
      exp: Date.UTC(2027, 0, 1) / 1000,
    });
    expect(payload.id).to.match(/^[0-9a-f-]{36}$/);
    const short = await license(
      [
        'sign',
        '--private-key',
        'keys/license-private.pem',
        '--plan',
        'PRO',
        '--licensee',
        'Acme',
        '--days',
        '30',
        '--file-size-mb',
        '250',
      ],
      dir,
    );
    const shortPayload = JSON.parse(Buffer.from(short.stdout.split('.')[1] as string, 'base64url').toString());
    expect(shortPayload).to.deep.include({ exp: Date.UTC(2026, 0, 31) / 1000, limits: { file_size_mb: 250 } });
  });

  it('sign refuses what a server would refuse, naming the option, and prints no key', async () => {
    const sign = (...extra: string[]) =>
      license(['sign', '--private-key', 'keys/license-private.pem', '--licensee', 'Acme', ...extra], dir);
    const cases: Array<[string[], string]> = [
      [['--plan', 'GOLD'], '--plan must be one of FREE, PRO, ENTERPRISE'],
      [['--plan', 'PRO', '--expires', 'soon'], '--expires "soon" is not a date'],
      [['--plan', 'PRO', '--expires', '2027-01-01', '--days', '3'], 'not both'],
      [['--plan', 'PRO', '--documents', '0'], '--documents "0" must be a positive number'],
      [['--plan', 'PRO', '--documents', '2.5'], 'limits.documents'],
      [['--plan', 'PRO', '--expires', '2020-01-01'], 'exp: must be after iat'],
      [['--plan', 'PRO', '--bogus'], "Unknown option '--bogus'"],
    ];
    for (const [args, message] of cases) {
      const result = await sign(...args);
      expect([result.code, result.stdout], args.join(' ')).to.deep.equal([2, '']);
      expect(result.stderr, args.join(' ')).to.include(message);
    }
    const publicAsPrivate = await license(
      ['sign', '--private-key', 'keys/license-public.pem', '--plan', 'PRO', '--licensee', 'Acme'],
      dir,
    );
    expect(publicAsPrivate.stderr).to.include('not a PEM private key');
  });

  it('inspect says when a key was edited, has expired, or is neither a key nor a file', async () => {
    const key = (
      await license(
        ['sign', '--private-key', 'keys/license-private.pem', '--plan', 'PRO', '--licensee', 'Acme', '--days', '10'],
        dir,
      )
    ).stdout;
    const withKey = { LICENSE_PUBLIC_KEY: fs.readFileSync(publicKeyFile, 'utf8') };
    expect((await license(['inspect', key], dir, withKey)).stdout)
      .to.include('Signature: valid (checked with LICENSE_PUBLIC_KEY)')
      .and.include('(in 10 days)');
    const edited = key.replace(/\.(.)/, (_, c: string) => `.${c === 'e' ? 'f' : 'e'}`);
    const refused = await license(['inspect', edited], dir, withKey);
    expect(refused.code).to.equal(1);
    expect(refused.stdout).to.include('Not valid');
    const later = await license(['inspect', key], dir, withKey, Date.UTC(2026, 1, 1));
    expect([later.code, later.stdout.includes('Expired: 2026-01-11')]).to.deep.equal([1, true]);
    const neither = await license(['inspect', 'no-such-file'], dir);
    expect([neither.code, neither.stderr]).to.deep.equal([
      2,
      'docqa license inspect: no-such-file is neither a license key (header.payload.signature) nor a file.',
    ]);
  });
});
