import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { createSecretBox } from './secret-box.js';

const key = 'a-test-key-that-is-long-enough-for-the-box';
const secret = 'JBSWY3DPEHPK3PXP-the-plaintext';

function expectUndecryptable(action: () => unknown): void {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(DocqaError.is(caught, 'internal'), String(caught)).to.equal(true);
  const message = (caught as DocqaError).message;
  expect(message).to.equal('A stored secret could not be decrypted (was MFA_ENCRYPTION_KEY changed?)');
  expect(message).not.to.contain(secret);
}

/** Changes one character of one dot-separated part, keeping it valid base64url. */
function tamper(sealed: string, partIndex: number): string {
  const parts = sealed.split('.');
  const part = parts[partIndex]!;
  const first = part[0] === 'A' ? 'B' : 'A';
  parts[partIndex] = first + part.slice(1);
  return parts.join('.');
}

describe('secret box', () => {
  const box = createSecretBox(key);

  it('opens what it sealed', () => {
    expect(box.open(box.seal(secret))).to.equal(secret);
    expect(box.open(box.seal(secret, 'user-1'), 'user-1')).to.equal(secret);
    expect(box.open(box.seal('', 'user-1'), 'user-1')).to.equal('');
    expect(box.open(box.seal('ünïcødé ✓'))).to.equal('ünïcødé ✓');
  });

  it('writes v1.<nonce>.<ciphertext>.<tag> in base64url with a 96-bit nonce and a 128-bit tag', () => {
    const sealed = box.seal(secret);
    const [version, nonce, ciphertext, tag] = sealed.split('.');
    expect(version).to.equal('v1');
    expect(Buffer.from(nonce!, 'base64url')).to.have.length(12);
    expect(Buffer.from(ciphertext!, 'base64url')).to.have.length(Buffer.byteLength(secret));
    expect(Buffer.from(tag!, 'base64url')).to.have.length(16);
    expect(sealed).to.match(/^v1(\.[A-Za-z0-9_-]+){3}$/);
    expect(sealed).not.to.contain(secret);
  });

  it('uses a fresh nonce for every seal', () => {
    const first = box.seal(secret);
    const second = box.seal(secret);
    expect(first).not.to.equal(second);
    expect(first.split('.')[1]).not.to.equal(second.split('.')[1]);
  });

  it('refuses a value with any part changed', () => {
    const sealed = box.seal(secret, 'user-1');
    for (const partIndex of [1, 2, 3]) expectUndecryptable(() => box.open(tamper(sealed, partIndex), 'user-1'));
    expectUndecryptable(() => box.open(sealed.replace(/^v1/, 'v2'), 'user-1'));
  });

  it('refuses a changed spare bit in the last base64url character', () => {
    const sealed = box.seal(secret, 'user-1');
    const parts = sealed.split('.');
    // A 16-byte tag is 22 characters; the last carries 4 spare bits, so flipping the lowest bit of its
    // 6-bit value decodes to the same bytes in a lenient decoder.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const tag = parts[3]!;
    const last = alphabet.indexOf(tag[tag.length - 1]!);
    parts[3] = tag.slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(parts[3], 'base64url').equals(Buffer.from(tag, 'base64url'))).to.equal(true);
    expectUndecryptable(() => box.open(parts.join('.'), 'user-1'));
  });

  it('refuses malformed values', () => {
    for (const value of ['', 'v1', 'v1...', 'v1.a.b', 'v1.a.b.c.d', 'not a sealed value', 'v1.!!!.??.**']) {
      expectUndecryptable(() => box.open(value));
    }
  });

  it('refuses a wrong key', () => {
    const sealed = box.seal(secret);
    expectUndecryptable(() => createSecretBox(`${key}-but-another-one`).open(sealed));
  });

  it('refuses wrong associated data, so a secret cannot move to another row', () => {
    const sealed = box.seal(secret, 'user-1');
    expectUndecryptable(() => box.open(sealed, 'user-2'));
    expectUndecryptable(() => box.open(sealed));
    expectUndecryptable(() => box.open(box.seal(secret), 'user-1'));
  });

  it('refuses a key shorter than 32 characters', () => {
    expect(() => createSecretBox('x'.repeat(31))).to.throw(DocqaError, /at least 32 characters/);
    expect(() => createSecretBox('x'.repeat(32))).not.to.throw();
  });
});
