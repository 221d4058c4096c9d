import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DocqaError } from '@docqa/plugin-api';
import { base32Decode, base32Encode } from './base32.js';

// TOTP (RFC 6238) on top of HOTP (RFC 4226) with the parameters every authenticator app supports:
// HMAC-SHA1, 6 digits, 30-second steps. SHA1 is fine here: HOTP relies on HMAC, not collision resistance.

export { base32Decode, base32Encode };

export const totpDefaults = { digits: 6, stepSeconds: 30, window: 1 } as const;

// RFC 4226 recommends 160-bit secrets, the HMAC-SHA1 output size.
const secretBytes = 20;

/** A fresh shared secret, base32 without padding, ready for an otpauth URI or manual entry. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(secretBytes));
}

/** The HOTP value of `counter` (for TOTP: the number of whole steps since the Unix epoch). */
export function totpCode(secretBase32: string, counter: number, digits: number = totpDefaults.digits): string {
  requireInteger('counter', counter, 0, Number.MAX_SAFE_INTEGER);
  // Below 6 digits guessing gets too easy (RFC 4226); above 8 the 31-bit value runs out of digits.
  requireInteger('digits', digits, 6, 8);
  const counterBytes = Buffer.alloc(8);
  counterBytes.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', decodeSecret(secretBase32)).update(counterBytes).digest();
  // Dynamic truncation (RFC 4226 section 5.3): the low nibble of the last byte picks 4 bytes.
  const offset = mac.readUInt8(mac.length - 1) & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

export interface VerifyTotpOptions {
  /** Milliseconds since the epoch; defaults to the clock. */
  now?: number;
  stepSeconds?: number;
  /** How many steps before and after the current one are accepted, for clock drift and typing time. */
  window?: number;
  /** The counter of the last code this user redeemed, or null when none was. */
  lastUsedCounter?: number | null;
  digits?: number;
}

export type VerifyTotpResult = { ok: true; counter: number } | { ok: false; reason: 'invalid' | 'replayed' };

/**
 * Checks a code typed by the user. On success the caller must store the returned counter as the user's
 * `lastUsedCounter`: a code (or an older one) then cannot be used a second time while still inside
 * the window, which is what stops someone who watched it being typed.
 */
export function verifyTotp(secretBase32: string, code: string, options: VerifyTotpOptions = {}): VerifyTotpResult {
  const {
    now = Date.now(),
    stepSeconds = totpDefaults.stepSeconds,
    window = totpDefaults.window,
    lastUsedCounter = null,
    digits = totpDefaults.digits,
  } = options;
  requireInteger('stepSeconds', stepSeconds, 1, 3600);
  // A wide window multiplies the chance of guessing a code; a few steps is already generous.
  requireInteger('window', window, 0, 10);

  const candidate = code.replace(/ /g, '');
  // [0-9], not \d, and no Number(): full-width digits, signs, exponents or '0x' are not codes.
  if (!new RegExp(`^[0-9]{${digits}}$`).test(candidate)) return { ok: false, reason: 'invalid' };
  const candidateBytes = Buffer.from(candidate, 'ascii');

  const currentCounter = Math.floor(now / 1000 / stepSeconds);
  let matchedCounter: number | null = null;
  // Every step in the window is compared, even after a match, so timing reveals nothing about which.
  for (let counter = currentCounter - window; counter <= currentCounter + window; counter += 1) {
    if (counter < 0) continue;
    const expected = Buffer.from(totpCode(secretBase32, counter, digits), 'ascii');
    if (timingSafeEqual(expected, candidateBytes)) matchedCounter = counter;
  }
  if (matchedCounter === null) return { ok: false, reason: 'invalid' };
  if (lastUsedCounter !== null && matchedCounter <= lastUsedCounter) return { ok: false, reason: 'replayed' };
  return { ok: true, counter: matchedCounter };
}

export interface OtpauthUriInput {
  secret: string;
  /** Shown in the authenticator app under the issuer, usually the user's email. */
  accountName: string;
  issuer: string;
  digits?: number;
  stepSeconds?: number;
}

/** The Key URI format authenticator apps read from a QR code. */
export function otpauthUri({
  secret,
  accountName,
  issuer,
  digits = totpDefaults.digits,
  stepSeconds = totpDefaults.stepSeconds,
}: OtpauthUriInput): string {
  // encodeURIComponent rather than URLSearchParams: apps expect %20 for spaces, not '+', and the
  // colon inside issuer or account must be escaped so it cannot be read as the label separator.
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(accountName)}`;
  const parameters: Array<[name: string, value: string]> = [
    ['secret', secret.replace(/\s+/g, '').replace(/=+$/, '').toUpperCase()],
    ['issuer', issuer],
    ['algorithm', 'SHA1'],
    ['digits', String(digits)],
    ['period', String(stepSeconds)],
  ];
  const query = parameters.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `otpauth://totp/${label}?${query}`;
}

// RFC 4226 requires at least 128 bits of shared secret; anything shorter was never written by us.
const minimumSecretBytes = 16;

/** The secret comes from our own storage, so a bad one is a server fault (500), not the user's (400). */
function decodeSecret(secretBase32: string): Buffer {
  let secret: Buffer;
  try {
    secret = base32Decode(secretBase32);
  } catch (error) {
    throw new DocqaError('internal', 'The stored TOTP secret is not valid base32.', { cause: error });
  }
  if (secret.length < minimumSecretBytes) {
    throw new DocqaError('internal', `The stored TOTP secret is shorter than ${minimumSecretBytes * 8} bits.`);
  }
  return secret;
}

function requireInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    // A programming error in the caller, not something a user typed.
    throw new DocqaError('internal', `TOTP ${name} must be an integer from ${min} to ${max}, got ${value}.`);
  }
}
