import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface InitOptions {
  cwd: string;
  ifMissing: boolean;
  force: boolean;
  out: (line: string) => void;
}

const secret = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

/** A password people can type: no look-alike characters, ~119 bits. */
function password(length = 20): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(crypto.randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * What an installer does: writes `.env` with generated secrets and a random admin password, shown
 * once. The file is created with mode 600 and never overwritten without --force.
 */
export function runInit(options: InitOptions): number {
  const file = path.join(options.cwd, '.env');
  if (fs.existsSync(file) && !options.force) {
    if (options.ifMissing) {
      options.out(`Using the existing ${file}.`);
      return 0;
    }
    options.out(`${file} exists already; pass --force to replace it (its secrets would change and stored MFA secrets become unreadable).`);
    return 1;
  }
  const adminPassword = password();
  const content = [
    '# Written by `docqa init`. Keep this file private: it holds the secrets of this installation.',
    `# Created ${new Date().toISOString()}. Every variable is described in docs/configuration.md.`,
    `JWT_SECRET_KEY=${secret(48)}`,
    `MFA_ENCRYPTION_KEY=${secret(32)}`,
    'DEFAULT_ADMIN_USER=admin',
    '# Used once, when the first start creates the admin account; change it after signing in.',
    `DEFAULT_ADMIN_PASSWORD=${adminPassword}`,
    'DOCQA_DATA_DIR=./data',
    '',
  ].join('\n');
  fs.writeFileSync(file, content, { mode: 0o600, flag: options.force ? 'w' : 'wx' });
  options.out(`Wrote ${file} with new secrets.`);
  options.out(`The admin account will be "admin" with the password: ${adminPassword}`);
  options.out('This is the only time the password is shown here; change it after the first sign-in.');
  return 0;
}
