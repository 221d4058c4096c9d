import { DocqaError } from '@docqa/plugin-api';

// RFC 4648 section 6: the alphabet authenticator apps expect for TOTP secrets.
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Encodes bytes as RFC 4648 base32 without `=` padding (the form otpauth URIs use). */
export function base32Encode(bytes: Uint8Array): string {
  let output = '';
  let buffer = 0;
  let bufferedBits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bufferedBits += 8;
    while (bufferedBits >= 5) {
      bufferedBits -= 5;
      output += alphabet[(buffer >> bufferedBits) & 0x1f];
    }
  }
  if (bufferedBits > 0) output += alphabet[(buffer << (5 - bufferedBits)) & 0x1f];
  return output;
}

/**
 * Decodes RFC 4648 base32. Forgiving where people retype secrets by hand (case, spaces, trailing `=`),
 * strict about anything that cannot be base32 at all.
 */
export function base32Decode(text: string): Buffer {
  const normalised = text.replace(/\s+/g, '').replace(/=+$/, '').toUpperCase();
  // 1, 3 or 6 characters left over after whole 8-character blocks cannot come from any byte string.
  if ([1, 3, 6].includes(normalised.length % 8)) throw notBase32();
  const bytes: number[] = [];
  let buffer = 0;
  let bufferedBits = 0;
  for (const character of normalised) {
    const value = alphabet.indexOf(character);
    if (value === -1) throw notBase32();
    buffer = ((buffer << 5) | value) & 0xffff;
    bufferedBits += 5;
    if (bufferedBits >= 8) {
      bufferedBits -= 8;
      bytes.push((buffer >> bufferedBits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function notBase32(): DocqaError {
  return new DocqaError('bad_request', 'The value is not valid base32 (RFC 4648: letters A-Z and digits 2-7).');
}
