import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Codes are shown (and normalised) in lower case, so the characters people confuse are 0/o, 1/l and
// upper-case I/l; with those left out exactly 32 remain, 5 bits per character, and 12 characters give
// 60 bits. A lower-case 'i' stays: it has its dot, and its look-alikes 'l', '1' and 'I' cannot occur.
const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
const groups = 3;
const groupLength = 4;

export const recoveryCodeBits = groups * groupLength * Math.log2(alphabet.length);

/** Fresh single-use recovery codes such as `k7dq-3mzx-hu9c`, all different. Show them once; store hashes. */
export function generateRecoveryCodes(count = 10): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(randomRecoveryCode());
  return [...codes];
}

function randomRecoveryCode(): string {
  // 256 is a multiple of 32, so masking a random byte picks every character equally often.
  const characters = [...randomBytes(groups * groupLength)].map((byte) => alphabet[byte & 0x1f]).join('');
  const parts: string[] = [];
  for (let start = 0; start < characters.length; start += groupLength) {
    parts.push(characters.slice(start, start + groupLength));
  }
  return parts.join('-');
}

/** Lower case without dashes or spaces, so `K7DQ 3MZX HU9C` and `k7dq-3mzx-hu9c` are the same code. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

/**
 * SHA-256 hex of the normalised code. A fast hash is enough here, unlike for passwords: a password is
 * chosen by a person and guessable from a dictionary, which is what slow hashes defend against, but a
 * recovery code is 60 random bits, so even a stolen table needs around 2^59 hash computations per code
 * on average. A slow hash would add little and cost a full scrypt per stored code on every attempt.
 */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normaliseRecoveryCode(code), 'utf8').digest('hex');
}

/**
 * The index of the stored hash `code` matches, or -1. Every entry is compared in constant time, without
 * stopping at a match, so timing tells nothing about which code (or how many) a user has left. The
 * caller removes the matched hash: each code works once.
 */
export function matchRecoveryCode(code: string, hashes: readonly string[]): number {
  const candidate = Buffer.from(hashRecoveryCode(code), 'utf8');
  let matchedIndex = -1;
  hashes.forEach((stored, index) => {
    const storedBytes = Buffer.from(stored.toLowerCase(), 'utf8');
    // timingSafeEqual needs equal lengths; a stored value of another length is malformed, never a match.
    if (storedBytes.length === candidate.length && timingSafeEqual(storedBytes, candidate)) matchedIndex = index;
  });
  return matchedIndex;
}
