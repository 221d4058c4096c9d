import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pullRecommendedModels, type PullModelsIo } from './init-models.js';

export interface InitOptions {
  cwd: string;
  ifMissing: boolean;
  force: boolean;
  out: (line: string) => void;
  /**
   * Download the recommended chat and embedding models: true (--pull-models, for scripts), 'ask'
   * (a terminal: the question is asked on a fresh install, default no), false (never; the default).
   */
  pullModels?: boolean | 'ask';
  /** The models part's environment, prompt and progress bar (the process's when left out). */
  models?: Partial<PullModelsIo>;
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
export async function runInit(options: InitOptions): Promise<number> {
  const file = path.join(options.cwd, '.env');
  if (fs.existsSync(file) && !options.force) {
    if (options.ifMissing) {
      options.out(`Using the existing ${file}.`);
      // Only an explicit --pull-models on an existing installation; the question is for fresh ones.
      return options.pullModels === true
        ? pullRecommendedModels(file, { cwd: options.cwd, out: options.out, ...options.models }, false)
        : 0;
    }
    options.out(
      `${file} exists already; pass --force to replace it (its secrets would ` +
        'change and stored MFA secrets become unreadable).',
    );
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
  if (!options.pullModels) return 0;
  return pullRecommendedModels(
    file,
    { cwd: options.cwd, out: options.out, ...options.models },
    options.pullModels === 'ask',
  );
}
