import { randomBytes, scryptSync } from 'node:crypto';
import { expect } from 'chai';
import { dummyVerify, hashPassword, needsRehash, passwordProblems, verifyPassword } from './password-hash.js';

/** An encoding with chosen parameters, as an older policy would have written it. */
function encodeWith(password: string, N: number, r = 8, p = 1): string {
  const salt = randomBytes(32);
  const hash = scryptSync(password, salt, 64, { N, r, p, maxmem: 256 * N * r });
  return ['scrypt', N, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
}

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const encoded = await hashPassword('correct horse battery staple');
    expect(encoded).to.match(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(await verifyPassword('correct horse battery staple', encoded)).to.equal(true);
    expect(await verifyPassword('correct horse battery stapl', encoded)).to.equal(false);
    expect(await verifyPassword('', encoded)).to.equal(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password')).not.to.equal(await hashPassword('same password'));
  });

  it('treats differently composed accents as the same password', async () => {
    const encoded = await hashPassword('Crème brûlée 42'.normalize('NFC'));
    expect(await verifyPassword('Crème brûlée 42'.normalize('NFD'), encoded)).to.equal(true);
  });

  it('answers false for malformed encodings instead of throwing', async () => {
    const good = await hashPassword('a good password');
    const [, N, r, p, salt, hash] = good.split('$');
    const malformed = [
      '',
      'not a hash',
      `bcrypt$${N}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${N}$${r}$${p}$${salt}`,
      `scrypt$1000$${r}$${p}$${salt}$${hash}`,
      `scrypt$0$${r}$${p}$${salt}$${hash}`,
      `scrypt$${2 ** 30}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${N}$-8$${p}$${salt}$${hash}`,
      `scrypt$${N}$${r}$${p}$!!!$${hash}`,
      `scrypt$${N}$${r}$${p}$${salt}$`,
      `scrypt$${N}$${r}$${p}$${salt}$${hash}$extra`,
    ];
    for (const encoded of malformed) {
      expect(await verifyPassword('a good password', encoded), encoded).to.equal(false);
    }
  });

  it('still verifies older, weaker hashes and asks for a rehash of them', async () => {
    const old = encodeWith('an older password', 2 ** 14);
    expect(await verifyPassword('an older password', old)).to.equal(true);
    expect(needsRehash(old)).to.equal(true);
    expect(needsRehash(encodeWith('an older password', 2 ** 15, 4))).to.equal(true);
    expect(needsRehash(await hashPassword('a current password'))).to.equal(false);
    expect(needsRehash('not a hash')).to.equal(true);
  });

  it('dummyVerify completes like a real verification and answers false', async () => {
    const encoded = await hashPassword('somebody real');
    const [real, dummy] = await Promise.all([verifyPassword('a guess', encoded), dummyVerify('a guess')]);
    expect(real).to.equal(false);
    expect(dummy).to.equal(false);
  });

  describe('passwordProblems', () => {
    it('accepts passwords of 10 to 256 characters', () => {
      expect(passwordProblems('0123456789')).to.deep.equal([]);
      expect(passwordProblems('x'.repeat(256))).to.deep.equal([]);
      expect(passwordProblems('  spaced password  ')).to.deep.equal([]);
      // Ten emoji are ten characters even though JavaScript counts twenty UTF-16 units.
      expect(passwordProblems('🔑'.repeat(10))).to.deep.equal([]);
    });

    it('explains what is wrong', () => {
      expect(passwordProblems('')).to.deep.equal(['The password must be at least 10 characters long.']);
      expect(passwordProblems('short')).to.deep.equal(['The password must be at least 10 characters long.']);
      expect(passwordProblems('🔑'.repeat(9))).to.have.length(1);
      expect(passwordProblems('x'.repeat(257))).to.deep.equal(['The password must be at most 256 characters long.']);
      expect(passwordProblems(' '.repeat(12))).to.deep.equal(['The password must not consist of spaces only.']);
      expect(passwordProblems('\t \n')).to.have.length(2);
    });
  });
});
