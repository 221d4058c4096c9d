import { expect } from 'chai';
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  matchRecoveryCode,
  normaliseRecoveryCode,
  recoveryCodeBits,
} from './recovery-codes.js';

describe('recovery codes', () => {
  it('makes ten different codes of three dash-separated groups by default', () => {
    const codes = generateRecoveryCodes();
    expect(codes).to.have.length(10);
    expect(new Set(codes).size).to.equal(10);
    for (const code of codes) expect(code).to.match(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(generateRecoveryCodes(3)).to.have.length(3);
  });

  it('never uses characters people confuse, and carries at least 60 bits', () => {
    const characters = generateRecoveryCodes(200).join('');
    expect(characters).not.to.match(/[0o1lI]/);
    expect(recoveryCodeBits).to.be.at.least(60);
  });

  it('hashes the normalised code with SHA-256', () => {
    const [code] = generateRecoveryCodes(1);
    expect(hashRecoveryCode(code!)).to.match(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode(code!.toUpperCase().replace(/-/g, ' '))).to.equal(hashRecoveryCode(code!));
    expect(normaliseRecoveryCode(' AB2c-DE3f gh4j ')).to.equal('ab2cde3fgh4j');
  });

  it('matches a code once, then not after the caller removed its hash', () => {
    const codes = generateRecoveryCodes();
    const hashes = codes.map(hashRecoveryCode);
    const index = matchRecoveryCode(codes[4]!.toUpperCase(), hashes);
    expect(index).to.equal(4);
    hashes.splice(index, 1);
    expect(matchRecoveryCode(codes[4]!, hashes)).to.equal(-1);
    expect(matchRecoveryCode(codes[5]!, hashes)).to.equal(4);
  });

  it('answers -1 for unknown codes, empty input and malformed stored hashes', () => {
    const hashes = generateRecoveryCodes(3).map(hashRecoveryCode);
    expect(matchRecoveryCode('aaaa-bbbb-cccc', hashes)).to.equal(-1);
    expect(matchRecoveryCode('', hashes)).to.equal(-1);
    expect(matchRecoveryCode('aaaa-bbbb-cccc', [])).to.equal(-1);
    expect(matchRecoveryCode('aaaa-bbbb-cccc', ['', 'xyz', hashRecoveryCode('aaaa-bbbb-cccc')])).to.equal(2);
  });
});
