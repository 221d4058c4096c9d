import {
  defaultPlanLimits,
  DocqaError,
  type AuditService,
  type LicenseGate,
  type LicenseState,
  type Plan,
  type PlanLimits,
} from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';
import type { LicenseService, LicenseUsage, LicenseView } from './contract.js';

const unlicensed: LicenseState = {
  plan: 'FREE',
  limits: defaultPlanLimits.FREE,
  licensee: null,
  licenseId: null,
  expiresAt: null,
  lapsed: false,
};

/** Reads and applies the license through the edition's license gate; without one, FREE for good. */
export class GatedLicense implements LicenseService {
  constructor(
    private readonly gate: LicenseGate | undefined,
    private readonly audit: AuditService,
  ) {}

  state(): LicenseState {
    return this.gate?.current() ?? unlicensed;
  }

  plan(): Plan {
    return this.state().plan;
  }

  limits(): PlanLimits {
    return this.state().limits;
  }

  describe(usage: LicenseUsage, state: LicenseState = this.state()): LicenseView {
    return {
      plan: state.plan,
      licensee: state.licensee,
      license_id: state.licenseId,
      expires_at: state.expiresAt?.toISOString() ?? null,
      lapsed: state.lapsed,
      limits: {
        documents: state.limits.documents,
        file_size_bytes: state.limits.fileSizeBytes,
        storage_bytes: state.limits.storageBytes,
      },
      usage: { documents: usage.documents, storage_bytes: usage.bytes },
    };
  }

  async apply(principal: Principal, ip: string | undefined, licenseKey: string): Promise<LicenseState> {
    if (!this.gate) {
      throw new DocqaError(
        'conflict',
        'This edition loads no license gate plugin, so a license cannot be applied; it runs on FREE.',
      );
    }
    const event = {
      type: 'license.apply',
      actor: { id: principal.userId, username: principal.username },
      ip: ip ?? null,
    } as const;
    let state: LicenseState;
    try {
      state = await this.gate.apply(licenseKey);
    } catch (error) {
      const claimed = this.gate.describeKey?.(licenseKey) ?? {};
      const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : null);
      const details = {
        plan: text(claimed.plan),
        licensee: text(claimed.licensee),
        license_id: text(claimed.id),
        reason: (error as Error).message,
      };
      await this.audit.record({ ...event, target: text(claimed.id), outcome: 'failure', details });
      if (DocqaError.is(error, 'validation_failed')) {
        throw new DocqaError('validation_failed', error.message, {
          cause: error,
          errors: [{ field: 'body.license_key', message: error.message }],
        });
      }
      throw error;
    }
    const details = { plan: state.plan, licensee: state.licensee, license_id: state.licenseId };
    await this.audit.record({ ...event, target: state.licenseId, outcome: 'success', details });
    return state;
  }
}
