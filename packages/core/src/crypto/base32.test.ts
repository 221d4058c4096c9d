import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { base32Decode, base32Encode } from './base32.js';

// RFC 4648 section 10, with the padding removed as otpauth URIs do.
const rfc4648Vectors: Array<[string, string]> = [
  ['', ''],
  ['f', 'MY'],
  ['fo', 'MZXQ'],
  ['foo', 'MZXW6'],
  ['foob', 'MZXW6YQ'],
  ['fooba', 'MZXW6YTB'],
  ['foobar', 'MZXW6YTBOI'],
];

describe('base32', () => {
  it('matches the RFC 4648 test vectors both ways', () => {
    for (const [plain, encoded] of rfc4648Vectors) {
      expect(base32Encode(Buffer.from(plain)), plain).to.equal(encoded);
      expect(base32Decode(encoded).toString(), encoded).to.equal(plain);
    }
  });

  it('round-trips random bytes of every length', () => {
    for (let length = 0; length <= 41; length += 1) {
      const bytes = randomBytes(length);
      expect(base32Decode(base32Encode(bytes)).equals(bytes)).to.equal(true);
    }
  });

  it('accepts padding, lower case and spaces as people type them', () => {
    expect(base32Decode('MZXW6YTBOI======').toString()).to.equal('foobar');
    expect(base32Decode('mzxw 6ytb oi').toString()).to.equal('foobar');
  });

  it('refuses characters and lengths base32 cannot produce', () => {
    for (const value of ['MZXW6YTB1', 'MZXW0', 'MZX!', 'M', 'MZX', 'MZXW6Y']) {
      expect(() => base32Decode(value), value).to.throw(DocqaError);
    }
  });
});
