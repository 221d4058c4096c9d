import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DocqaError, plans, type Plan } from '@docqa/plugin-api';
import { readEnvironment } from '@docqa/kernel';
import {
  generateLicenseKeyPair,
  publicKeyFromPem,
  readUnverifiedClaims,
  signLicense,
  vendorPublicKeyPem,
  verifyLicenseKey,
} from '@docqa/plugin-license-ed25519';

export const licenseUsage = `Usage: docqa license <command>

  keygen --out <dir>
         write a new Ed25519 key pair: license-private.pem (mode 600) and license-public.pem
  sign --private-key <pem file> --plan FREE|PRO|ENTERPRISE --licensee <name>
       [--expires YYYY-MM-DD | --days N] [--id <id>]
       [--documents N] [--file-size-mb N] [--storage-gb N]
         print a signed license key (valid for 365 days unless told otherwise)
  inspect <key or key file> [--public-key <pem file>]
         print what a key holds and whether it verifies (against --public-key,
         else LICENSE_PUBLIC_KEY(_FILE), else the built-in vendor key); exit 1 when it does not
`;

export interface LicenseCliIo {
  cwd: string;
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
  /** Milliseconds since the epoch; tests pin it. */
  now?: () => number;
}

const day = 24 * 60 * 60;

/** `docqa license …`: what a vendor or partner needs to issue keys, and an operator to check one. */
export async function runLicense(argv: string[], io: LicenseCliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(licenseUsage);
    return 0;
  }
  try {
    if (command === 'keygen') return keygen(rest, io);
    if (command === 'sign') return sign(rest, io);
    if (command === 'inspect') return inspect(rest, io);
  } catch (error) {
    // Usage mistakes (parseArgs) and refused input (DocqaError) are the user's to fix: one line, no stack.
    if (DocqaError.is(error) || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`docqa license ${command}: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
  io.err(command ? `Unknown license command: ${command}\n${licenseUsage}` : licenseUsage);
  return 2;
}

function keygen(argv: string[], io: LicenseCliIo): number {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } } });
  if (!values.out) throw usage('--out <dir> is required');
  const dir = path.resolve(io.cwd, values.out);
  fs.mkdirSync(dir, { recursive: true });
  const { privateKeyPem, publicKeyPem } = generateLicenseKeyPair();
  const privateFile = path.join(dir, 'license-private.pem');
  const publicFile = path.join(dir, 'license-public.pem');
  for (const file of [privateFile, publicFile]) {
    if (fs.existsSync(file))
      throw usage(
        `${file} exists already; a key pair is never overwritten (licenses signed with it would stop verifying)`,
      );
  }
  // 'wx': created here or not at all, so a file that appeared meanwhile is not replaced.
  fs.writeFileSync(privateFile, privateKeyPem, { mode: 0o600, flag: 'wx' });
  fs.writeFileSync(publicFile, publicKeyPem, { mode: 0o644, flag: 'wx' });
  io.out(`Wrote ${privateFile} (keep it offline: whoever has it can sign licenses).`);
  io.out(`Wrote ${publicFile}; give it to servers as LICENSE_PUBLIC_KEY_FILE (or LICENSE_PUBLIC_KEY).`);
  return 0;
}

function sign(argv: string[], io: LicenseCliIo): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      'private-key': { type: 'string' },
      plan: { type: 'string' },
      licensee: { type: 'string' },
      expires: { type: 'string' },
      days: { type: 'string' },
      id: { type: 'string' },
      documents: { type: 'string' },
      'file-size-mb': { type: 'string' },
      'storage-gb': { type: 'string' },
    },
  });
  if (!values['private-key']) throw usage('--private-key <pem file> is required');
  if (!values.licensee) throw usage('--licensee <name> is required');
  const plan = values.plan?.toUpperCase();
  if (!plans.includes(plan as Plan)) throw usage(`--plan must be one of ${plans.join(', ')}`);
  if (values.expires && values.days) throw usage('give --expires or --days, not both');
  const now = Math.floor((io.now ?? Date.now)() / 1000);
  const exp = values.expires
    ? parseExpiry(values.expires)
    : now + Math.round(number('--days', values.days ?? '365') * day);
  const limits = {
    ...(values.documents !== undefined ? { documents: number('--documents', values.documents) } : {}),
    ...(values['file-size-mb'] !== undefined ? { file_size_mb: number('--file-size-mb', values['file-size-mb']) } : {}),
    ...(values['storage-gb'] !== undefined ? { storage_gb: number('--storage-gb', values['storage-gb']) } : {}),
  };
  const privateKeyPem = readFile(path.resolve(io.cwd, values['private-key']), '--private-key');
  const key = signLicense(privateKeyPem, {
    plan: plan as Plan,
    licensee: values.licensee,
    id: values.id ?? crypto.randomUUID(),
    iat: now,
    exp,
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  });
  // Only the key on stdout, so `docqa license sign … > license.key` writes a key file.
  io.out(key);
  io.err(`Signed a ${plan} license for ${values.licensee}, valid until ${new Date(exp * 1000).toISOString()}.`);
  return 0;
}

function inspect(argv: string[], io: LicenseCliIo): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'public-key': { type: 'string' } },
  });
  const [given] = positionals;
  if (!given || positionals.length > 1) throw usage('give one license key, or the file holding it');
  const asFile = path.resolve(io.cwd, given);
  if (!fs.existsSync(asFile) && given.split('.').length !== 3)
    throw usage(`${given} is neither a license key (header.payload.signature) nor a file`);
  const key = fs.existsSync(asFile) ? readFile(asFile, 'the key file') : given;
  const claims = readUnverifiedClaims(key);
  io.out(claims ? JSON.stringify(claims, null, 2) : 'The key holds no readable payload.');
  const { pem, from } = verifyingKey(values['public-key'], io);
  try {
    const verified = verifyLicenseKey(key, publicKeyFromPem(pem));
    const expiresIn = verified.exp - (io.now ?? Date.now)() / 1000;
    io.out(`Signature: valid (checked with ${from}).`);
    io.out(
      expiresIn > 0
        ? `Expires: ${new Date(verified.exp * 1000).toISOString()} (in ${Math.ceil(expiresIn / day)} days).`
        : `Expired: ${new Date(verified.exp * 1000).toISOString()}; a server answers FREE for it.`,
    );
    return expiresIn > 0 ? 0 : 1;
  } catch (error) {
    if (!DocqaError.is(error)) throw error;
    io.out(`Not valid (checked with ${from}): ${error.message}`);
    return 1;
  }
}

/** The key a server here would verify with: the same variables, .env and secret file the kernel reads. */
function verifyingKey(option: string | undefined, io: LicenseCliIo): { pem: string; from: string } {
  if (option) return { pem: readFile(path.resolve(io.cwd, option), '--public-key'), from: option };
  const env = readEnvironment(io.env, io.cwd);
  if (env.LICENSE_PUBLIC_KEY) return { pem: env.LICENSE_PUBLIC_KEY, from: 'LICENSE_PUBLIC_KEY' };
  if (env.LICENSE_PUBLIC_KEY_FILE)
    return {
      pem: readFile(path.resolve(io.cwd, env.LICENSE_PUBLIC_KEY_FILE), 'LICENSE_PUBLIC_KEY_FILE'),
      from: `LICENSE_PUBLIC_KEY_FILE (${env.LICENSE_PUBLIC_KEY_FILE})`,
    };
  const secret = path.join(env.DOCQA_SECRETS_DIR ?? '/run/secrets', 'license_public_key');
  if (fs.existsSync(secret)) return { pem: readFile(secret, 'the secret file'), from: secret };
  return { pem: vendorPublicKeyPem, from: 'the built-in vendor key' };
}

/** `2027-12-31` means through the end of that day (UTC); a full ISO time is taken as given. */
function parseExpiry(text: string): number {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const ms = Date.parse(dateOnly ? `${text}T23:59:59Z` : text);
  if (Number.isNaN(ms)) throw usage(`--expires "${text}" is not a date (YYYY-MM-DD or an ISO 8601 time)`);
  return Math.floor(ms / 1000);
}

function number(option: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw usage(`${option} "${text}" must be a positive number`);
  return value;
}

function readFile(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw usage(`${what}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

function usage(message: string): DocqaError {
  return new DocqaError('bad_request', `${message}.`);
}
