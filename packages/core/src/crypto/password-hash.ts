import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { OneAtATime } from './one-at-a-time.js';

// scrypt is memory-hard: each guess needs 128·N·r bytes (32 MiB here), which makes guessing on GPUs
// and ASICs expensive. These parameters are the current policy; hashes store their own, so raising
// them later leaves existing hashes verifiable and needsRehash() upgrades them at the next login.
export const currentScryptParameters = { N: 2 ** 15, r: 8, p: 1, saltBytes: 32, keyBytes: 64 } as const;

// Limits for parameters read back from storage, so a corrupt or hostile row cannot make one login
// allocate gigabytes or run for minutes.
const maximumCost = 2 ** 20;
const maximumMemoryBytes = 256 * 1024 * 1024;

interface ScryptHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** `scrypt$N$r$p$<salt base64>$<hash base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, saltBytes, keyBytes } = currentScryptParameters;
  const salt = randomBytes(saltBytes);
  const hash = await deriveKey(password, salt, keyBytes, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** True when `password` matches; false for a wrong password and for an encoding that is not ours. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const stored = parseEncoded(encoded);
  if (!stored) return false;
  try {
    const hash = await deriveKey(password, stored.salt, stored.hash.length, stored);
    return timingSafeEqual(hash, stored.hash);
  } catch {
    return false;
  }
}

/** True when the hash was made with weaker parameters than today's (or cannot be read at all). */
export function needsRehash(encoded: string): boolean {
  const stored = parseEncoded(encoded);
  if (!stored) return true;
  const current = currentScryptParameters;
  return (
    stored.N < current.N ||
    stored.r < current.r ||
    stored.p < current.p ||
    stored.salt.length < current.saltBytes ||
    stored.hash.length < current.keyBytes
  );
}

// A real hash with the current parameters of a password nobody knows (generated once with
// hashPassword). Being a constant, the first dummyVerify costs exactly what every later one does.
const dummyHash =
  'scrypt$32768$8$1$F9bGgpiqnl3SmxbuVihW603hhjLJ6e5jbfopYMaSD4s=$' +
  'jNM0x72Vjg9ZDp/eXpt/AJI6LQO7UwuuIsR38giBajc/HvZiWb8ACBpWkkcP45TUjA8meYWNIYs5tQwquzrqDw==';

/**
 * Spends the time of one real verification and answers false. Call it when the user does not exist
 * (login, forgot password), so response times do not reveal which accounts exist.
 */
export async function dummyVerify(password: string): Promise<false> {
  await verifyPassword(password, dummyHash);
  return false;
}

export const passwordLengthLimits = { minimum: 10, maximum: 256 } as const;

/** What is wrong with a new password, as sentences a user can act on; empty when it is acceptable. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  // Characters as people count them (code points), not UTF-16 units: an emoji counts as one.
  const length = [...password].length;
  if (length < passwordLengthLimits.minimum) {
    problems.push(`The password must be at least ${passwordLengthLimits.minimum} characters long.`);
  }
  if (length > passwordLengthLimits.maximum) {
    problems.push(`The password must be at most ${passwordLengthLimits.maximum} characters long.`);
  }
  if (length > 0 && password.trim() === '') {
    problems.push('The password must not consist of spaces only.');
  }
  return problems;
}

function parseEncoded(encoded: string): ScryptHash | null {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(parsePositiveInteger);
  const salt = decodeBase64(parts[4] ?? '');
  const hash = decodeBase64(parts[5] ?? '');
  if (N === undefined || r === undefined || p === undefined || !salt || !hash) return null;
  // scrypt needs a power-of-two N above 1; short salts or hashes are not something we ever wrote.
  if (N < 2 || (N & (N - 1)) !== 0 || N > maximumCost) return null;
  if (r > 32 || p > 16 || memoryNeeded(N, r) > maximumMemoryBytes) return null;
  if (salt.length < 16 || hash.length < 16) return null;
  return { N, r, p, salt, hash };
}

function parsePositiveInteger(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  return Number(text);
}

function decodeBase64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  return Buffer.from(text, 'base64');
}

function memoryNeeded(N: number, r: number): number {
  return 128 * N * r;
}

function deriveKey(
  password: string,
  salt: Buffer,
  keyBytes: number,
  { N, r, p }: { N: number; r: number; p: number },
): Promise<Buffer> {
  // Node refuses scrypt above `maxmem` (32 MiB by default, exactly what N = 2^15, r = 8 needs, and
  // its check includes some overhead), so allow twice the block memory.
  const options: ScryptOptions = { N, r, p, maxmem: 2 * memoryNeeded(N, r) };
  // NFKC so the same password typed on systems that compose accents differently still matches
  // (NIST SP 800-63B asks verifiers to normalise this way).
  const normalised = password.normalize('NFKC');
  return derivations.run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(normalised, salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

/**
 * One derivation at a time. Each holds its 32 MiB until it ends, on a thread of libuv's pool (four by
 * default, shared with file I/O): a burst of logins, or of guesses, cost up to 128 MiB at once and
 * took every thread the server reads and writes files with. In turn, a burst costs 32 MiB, and each
 * login waits for those before it (about 0.2 s each on a 2-core machine); the other threads stay free.
 */
const derivations = new OneAtATime();
