import { expect } from 'chai';
import { defaultPlanLimits, type LicenseGate, type LicenseState, type Plan } from '@docqa/plugin-api';

/** The payload of a license key as the decisions file fixes it ("Plans"); times in seconds. */
export interface LicenseClaimsForTest {
  plan: Plan;
  licensee: string;
  id: string;
  iat: number;
  exp: number;
  limits?: { documents?: number; file_size_mb?: number; storage_gb?: number };
}

/**
 * What a license gate's test hands the suite. `start()` runs once for the suite, on a gate with no
 * license applied yet. `sign` issues a key the gate trusts; `signWithOtherKey` the same claims from
 * a key it does not. `now()` is the gate's clock in milliseconds; with `advanceClock` the suite
 * also checks that a license lapses while running.
 */
export interface LicenseGateConformanceSetup {
  start(): Promise<{
    gate: LicenseGate;
    sign(claims: LicenseClaimsForTest): string;
    signWithOtherKey(claims: LicenseClaimsForTest): string;
    now(): number;
    advanceClock?(seconds: number): void;
    dispose(): Promise<void>;
  }>;
}

type Started = Awaited<ReturnType<LicenseGateConformanceSetup['start']>>;

const day = 24 * 60 * 60;
const mib = 1024 * 1024;
const gib = 1024 * mib;

/**
 * The behaviour every license gate owes the rest of DocQA: a genuine key sets the plan and limits,
 * anything else (edited, signed by another key, expired, garbage) is refused with validation_failed
 * and changes nothing, and an expired license falls back to FREE without forgetting whose it was.
 */
export function describeLicenseGateConformance(name: string, setup: LicenseGateConformanceSetup): void {
  describe(`${name}: license gate conformance`, function () {
    let started: Started | null = null;
    let serial = 0;

    before(async function () {
      this.timeout(120_000);
      started = await setup.start();
    });

    after(async function () {
      this.timeout(60_000);
      await started?.dispose();
      started = null;
    });

    const current = (): Started => {
      if (!started) throw new Error('setup.start() did not run');
      return started;
    };
    const claims = (plan: Plan, extra: Partial<LicenseClaimsForTest> = {}): LicenseClaimsForTest => {
      const now = Math.floor(current().now() / 1000);
      serial += 1;
      return {
        plan,
        licensee: 'Conformance Ltd',
        id: `lic-conformance-${serial}`,
        iat: now - 60,
        exp: now + 365 * day,
        ...extra,
      };
    };
    /** Applies a genuine PRO key so each refusal below has a previous license to keep. */
    const applyBaseline = async (): Promise<LicenseState> => {
      const { gate, sign } = current();
      return gate.apply(sign(claims('PRO', { licensee: 'Baseline Inc' })));
    };
    const expectRefusedKeepingState = async (key: string, what: string) => {
      const { gate } = current();
      const before = gate.current();
      const error = await gate.apply(key).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error, `${what} must be refused`).to.be.an('error');
      expect(error, what).to.have.property('name', 'DocqaError');
      expect(error, what).to.have.property('code', 'validation_failed');
      expect((error as Error).message, `${what}: the message says something`).to.have.length.greaterThan(20);
      expect(gate.current(), `${what}: the previous license stays`).to.deep.equal(before);
    };

    it('starts on FREE with the FREE limits when no license was applied', () => {
      expect(current().gate.current()).to.deep.equal({
        plan: 'FREE',
        limits: defaultPlanLimits.FREE,
        licensee: null,
        licenseId: null,
        expiresAt: null,
        lapsed: false,
      });
    });

    it('applies a genuine PRO key: plan, licensee, id, expiry and the PRO default limits', async () => {
      const { gate, sign } = current();
      const pro = claims('PRO', { licensee: 'Acme GmbH' });
      const state = await gate.apply(sign(pro));
      const expected: LicenseState = {
        plan: 'PRO',
        limits: defaultPlanLimits.PRO,
        licensee: 'Acme GmbH',
        licenseId: pro.id,
        expiresAt: new Date(pro.exp * 1000),
        lapsed: false,
      };
      expect(state).to.deep.equal(expected);
      expect(gate.current()).to.deep.equal(expected);
    });

    it(
      "takes the license's limits over the plan's defaults, " +
        'field by field; ENTERPRISE without limits is unlimited',
      async () => {
        const { gate, sign } = current();
        expect((await gate.apply(sign(claims('PRO', { limits: { documents: 5 } })))).limits).to.deep.equal({
          ...defaultPlanLimits.PRO,
          documents: 5,
        });
        expect((await gate.apply(sign(claims('ENTERPRISE')))).limits).to.deep.equal({
          documents: null,
          fileSizeBytes: null,
          storageBytes: null,
        });
        const limited = await gate.apply(sign(claims('ENTERPRISE', { limits: { file_size_mb: 250, storage_gb: 2 } })));
        expect(limited.plan).to.equal('ENTERPRISE');
        expect(limited.limits).to.deep.equal({ documents: null, fileSizeBytes: 250 * mib, storageBytes: 2 * gib });
      },
    );

    it('accepts a key with the surrounding whitespace of a key file', async () => {
      const { gate, sign } = current();
      const enterprise = claims('ENTERPRISE');
      expect((await gate.apply(`\n  ${sign(enterprise)}\r\n`)).licenseId).to.equal(enterprise.id);
    });

    it('refuses a key edited in any one character, keeping the previous license', async () => {
      await applyBaseline();
      const key = current().sign(claims('ENTERPRISE', { licensee: 'Edited Corp' }));
      const [header = '', payload = ''] = key.split('.');
      const positions = new Set([
        0,
        Math.floor(header.length / 2),
        header.length - 1,
        header.length + 1,
        header.length + 1 + Math.floor(payload.length / 2),
        header.length + payload.length,
        header.length + payload.length + 2,
        key.length - 2,
        key.length - 1,
      ]);
      for (const at of positions) {
        const original = key[at] as string;
        for (const replacement of [original === 'A' ? 'B' : 'A', original === '_' ? '-' : '_']) {
          await expectRefusedKeepingState(
            key.slice(0, at) + replacement + key.slice(at + 1),
            `the key with character ${at} changed to ${replacement}`,
          );
        }
      }
      await expectRefusedKeepingState(key.slice(0, -1), 'the key without its last character');
      await expectRefusedKeepingState(`${key}A`, 'the key with a character appended');
    });

    it('refuses a key signed by another key, keeping the previous license', async () => {
      await applyBaseline();
      await expectRefusedKeepingState(current().signWithOtherKey(claims('ENTERPRISE')), 'a key signed by another key');
    });

    it('refuses an expired key, and one issued in the future, keeping the previous license', async () => {
      await applyBaseline();
      const now = Math.floor(current().now() / 1000);
      await expectRefusedKeepingState(
        current().sign(claims('ENTERPRISE', { iat: now - 30 * day, exp: now - day })),
        'an expired key',
      );
      await expectRefusedKeepingState(
        current().sign(claims('ENTERPRISE', { iat: now + day, exp: now + 30 * day })),
        'a key issued tomorrow',
      );
    });

    it('refuses genuine signatures over a payload of the wrong shape', async () => {
      await applyBaseline();
      const { sign } = current();
      const bad: Array<[string, unknown]> = [
        ['an unknown plan', { ...claims('PRO'), plan: 'GOLD' }],
        ['no licensee', { ...claims('PRO'), licensee: undefined }],
        ['no id', { ...claims('PRO'), id: '' }],
        ['exp before iat', { ...claims('PRO'), exp: 1000, iat: 2000 }],
        ['a negative document limit', { ...claims('PRO'), limits: { documents: -1 } }],
      ];
      for (const [what, payload] of bad)
        await expectRefusedKeepingState(sign(payload as LicenseClaimsForTest), `a payload with ${what}`);
    });

    it('refuses garbage, keeping the previous license', async () => {
      await applyBaseline();
      const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const payload = b64(claims('ENTERPRISE'));
      const garbage = [
        '',
        '   ',
        'not a license',
        'a.b',
        'a.b.c',
        '..',
        `${b64({ alg: 'none' })}.${payload}.`,
        `${b64({ alg: 'none' })}.${payload}.AAAA`,
        `${b64({ alg: 'HS256' })}.${payload}.${Buffer.alloc(32).toString('base64url')}`,
        'x'.repeat(100_000),
      ];
      for (const key of garbage) await expectRefusedKeepingState(key, `the key ${JSON.stringify(key.slice(0, 60))}`);
    });

    it('falls back to FREE when the license expires while running, keeping whose it was', async function () {
      const { gate, sign, advanceClock } = current();
      if (!advanceClock) this.skip();
      const soon = claims('ENTERPRISE', { licensee: 'Lapsing SA', exp: Math.floor(current().now() / 1000) + 2 * day });
      expect((await gate.apply(sign(soon))).plan).to.equal('ENTERPRISE');
      advanceClock!(3 * day);
      expect(gate.current()).to.deep.equal({
        plan: 'FREE',
        limits: defaultPlanLimits.FREE,
        licensee: 'Lapsing SA',
        licenseId: soon.id,
        expiresAt: new Date(soon.exp * 1000),
        lapsed: true,
      });
      // A renewed key applies on top of the lapsed one.
      const renewed = claims('PRO', { licensee: 'Lapsing SA' });
      expect(await gate.apply(sign(renewed))).to.include({ plan: 'PRO', lapsed: false, licenseId: renewed.id });
    });
  });
}
