import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { base32Decode, base32Encode } from './base32.js';
import { generateTotpSecret, otpauthUri, totpCode, verifyTotp } from './totp.js';

// RFC 6238 Appendix B uses the ASCII seed '12345678901234567890' for HMAC-SHA1.
const rfcSecret = base32Encode(Buffer.from('12345678901234567890', 'ascii'));
const rfcVectors: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('totp', () => {
  describe('totpCode', () => {
    it('matches the RFC 6238 Appendix B SHA1 test vectors', () => {
      for (const [seconds, code] of rfcVectors) {
        expect(totpCode(rfcSecret, Math.floor(seconds / 30), 8), String(seconds)).to.equal(code);
      }
    });

    it('gives 6 digits by default: the last 6 of the 8-digit value', () => {
      expect(totpCode(rfcSecret, 1)).to.equal('287082');
    });

    it('refuses counters and digit counts that make no sense', () => {
      expect(() => totpCode(rfcSecret, -1)).to.throw(DocqaError);
      expect(() => totpCode(rfcSecret, 1.5)).to.throw(DocqaError);
      expect(() => totpCode(rfcSecret, 1, 5)).to.throw(DocqaError);
      expect(() => totpCode(rfcSecret, 1, 9)).to.throw(DocqaError);
    });

    it('treats a broken or too short stored secret as a server fault', () => {
      for (const secret of ['', 'MZXW6YTBOI', 'not base32!']) {
        let caught: unknown;
        try {
          totpCode(secret, 1);
        } catch (error) {
          caught = error;
        }
        expect(DocqaError.is(caught, 'internal'), secret).to.equal(true);
      }
    });
  });

  describe('verifyTotp', () => {
    const secret = generateTotpSecret();
    const stepMs = 30_000;
    // The middle of a step, so ±1 step never crosses into a neighbour by rounding.
    const now = 1_700_000_000_000 - (1_700_000_000_000 % stepMs) + stepMs / 2;
    const counter = now / stepMs - 0.5;
    const codeAt = (offset: number) => totpCode(secret, counter + offset);

    it('accepts the current code and answers its counter', () => {
      expect(verifyTotp(secret, codeAt(0), { now })).to.deep.equal({ ok: true, counter });
    });

    it('accepts the previous and next step, not two steps away', () => {
      expect(verifyTotp(secret, codeAt(-1), { now })).to.deep.equal({ ok: true, counter: counter - 1 });
      expect(verifyTotp(secret, codeAt(1), { now })).to.deep.equal({ ok: true, counter: counter + 1 });
      for (const offset of [-2, 2]) {
        // Skip the one-in-a-million case where a neighbour step happens to have the same code.
        if ([-1, 0, 1].some((near) => codeAt(near) === codeAt(offset))) continue;
        expect(verifyTotp(secret, codeAt(offset), { now })).to.deep.equal({ ok: false, reason: 'invalid' });
      }
    });

    it('honours a wider or a zero window', () => {
      expect(verifyTotp(secret, codeAt(2), { now, window: 2 }).ok).to.equal(true);
      if (codeAt(1) !== codeAt(0)) {
        expect(verifyTotp(secret, codeAt(1), { now, window: 0 }).ok).to.equal(false);
      }
    });

    it('refuses a code already used, and any older one, as replayed', () => {
      const first = verifyTotp(secret, codeAt(0), { now });
      expect(first.ok).to.equal(true);
      const lastUsedCounter = first.ok ? first.counter : null;
      expect(verifyTotp(secret, codeAt(0), { now, lastUsedCounter })).to.deep.equal({ ok: false, reason: 'replayed' });
      expect(verifyTotp(secret, codeAt(-1), { now, lastUsedCounter })).to.deep.equal({ ok: false, reason: 'replayed' });
      expect(verifyTotp(secret, codeAt(1), { now, lastUsedCounter })).to.deep.equal({ ok: true, counter: counter + 1 });
    });

    it('strips spaces before checking', () => {
      const code = codeAt(0);
      expect(verifyTotp(secret, ` ${code.slice(0, 3)} ${code.slice(3)} `, { now }).ok).to.equal(true);
    });

    it('calls anything but exactly 6 ASCII digits invalid', () => {
      const code = codeAt(0);
      const fullWidth = [...code].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join('');
      for (const candidate of [
        '',
        code.slice(0, 5),
        `${code}0`,
        `0${code}`,
        `${code.slice(0, 5)}a`,
        `+${code.slice(1)}`,
        `${code.slice(0, 5)}\n`,
        fullWidth,
        '1e5000',
      ]) {
        expect(verifyTotp(secret, candidate, { now }), JSON.stringify(candidate)).to.deep.equal({
          ok: false,
          reason: 'invalid',
        });
      }
    });

    it('checks 8-digit codes when asked to', () => {
      const rfcNow = 1111111111 * 1000;
      expect(verifyTotp(rfcSecret, '14050471', { now: rfcNow, digits: 8 }).ok).to.equal(true);
      expect(verifyTotp(rfcSecret, '050471', { now: rfcNow, digits: 8 }).ok).to.equal(false);
    });

    it('refuses nonsensical options loudly rather than accepting everything', () => {
      expect(() => verifyTotp(secret, codeAt(0), { now, window: -1 })).to.throw(DocqaError);
      expect(() => verifyTotp(secret, codeAt(0), { now, stepSeconds: 0 })).to.throw(DocqaError);
    });
  });

  describe('generateTotpSecret', () => {
    it('makes different 160-bit secrets in unpadded base32', () => {
      const first = generateTotpSecret();
      expect(first).to.match(/^[A-Z2-7]{32}$/);
      expect(base32Decode(first)).to.have.length(20);
      expect(generateTotpSecret()).not.to.equal(first);
    });
  });

  describe('otpauthUri', () => {
    it('builds a Key URI that parses and carries secret, issuer and parameters', () => {
      const secret = generateTotpSecret();
      const uri = otpauthUri({ secret, accountName: 'alice+mfa@example.com', issuer: 'DocQA Acme & Co' });
      expect(uri.startsWith('otpauth://totp/DocQA%20Acme%20%26%20Co:alice%2Bmfa%40example.com?')).to.equal(true);
      const url = new URL(uri);
      expect(url.protocol).to.equal('otpauth:');
      expect(url.host).to.equal('totp');
      expect(decodeURIComponent(url.pathname.slice(1))).to.equal('DocQA Acme & Co:alice+mfa@example.com');
      expect(url.searchParams.get('secret')).to.equal(secret);
      expect(url.searchParams.get('issuer')).to.equal('DocQA Acme & Co');
      expect(url.searchParams.get('algorithm')).to.equal('SHA1');
      expect(url.searchParams.get('digits')).to.equal('6');
      expect(url.searchParams.get('period')).to.equal('30');
      expect(uri).not.to.contain('+');
    });

    it('escapes a colon so it cannot split the label in the wrong place', () => {
      const uri = otpauthUri({ secret: 'MZXW6YTBOI', accountName: 'a:b', issuer: 'DocQA' });
      expect(new URL(uri).pathname).to.equal('/DocQA:a%3Ab');
    });
  });
});
