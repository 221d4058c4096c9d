import { defaultPlanLimits, DocqaError, providerTokens, tokens, type AuditService, type LicenseState } from '@docqa/plugin-api';
import type { Kernel } from '@docqa/kernel';
import { readUnverifiedClaims } from '@docqa/plugin-license-ed25519';
import type { DocumentRepository } from '../documents/document-repository.js';
import type { Principal } from '@docqa/core/identity';

/** GET/POST /api/license: the plan in effect, its limits (null = unlimited) and what is used of them. */
export interface LicenseView {
  plan: LicenseState['plan'];
  licensee: string | null;
  license_id: string | null;
  expires_at: string | null;
  lapsed: boolean;
  limits: { documents: number | null; file_size_bytes: number | null; storage_bytes: number | null };
  usage: { documents: number; storage_bytes: number };
}

/** Reads and applies the license through whichever license gate the edition loads. */
export class LicenseService {
  readonly #audit: AuditService;

  constructor(
    private readonly kernel: Kernel,
    private readonly documents: DocumentRepository,
  ) {
    this.#audit = kernel.resolve(tokens.audit);
  }

  state(): LicenseState {
    // No license gate, no license: FREE (decisions file), as the route gates see it.
    if (!this.kernel.container.has(providerTokens.licenseGate)) return { plan: 'FREE', limits: defaultPlanLimits.FREE, licensee: null, licenseId: null, expiresAt: null, lapsed: false };
    return this.kernel.resolve(providerTokens.licenseGate).current();
  }

  async describe(state: LicenseState = this.state()): Promise<LicenseView> {
    // The same totals the upload and sync limits are checked against.
    const usage = await this.documents.totals();
    return {
      plan: state.plan,
      licensee: state.licensee,
      license_id: state.licenseId,
      expires_at: state.expiresAt?.toISOString() ?? null,
      lapsed: state.lapsed,
      limits: { documents: state.limits.documents, file_size_bytes: state.limits.fileSizeBytes, storage_bytes: state.limits.storageBytes },
      usage: { documents: usage.documents, storage_bytes: usage.bytes },
    };
  }

  /** Applies a key; either way the attempt is audited with what the key names, never the key. */
  async apply(principal: Principal, ip: string | undefined, licenseKey: string): Promise<LicenseView> {
    if (!this.kernel.container.has(providerTokens.licenseGate)) {
      throw new DocqaError('conflict', 'This edition loads no license gate plugin, so a license cannot be applied; it runs on FREE.');
    }
    const event = { type: 'license.apply', actor: { id: principal.userId, username: principal.username }, ip: ip ?? null } as const;
    let state: LicenseState;
    try {
      state = await this.kernel.resolve(providerTokens.licenseGate).apply(licenseKey);
    } catch (error) {
      // What a refused key claims, unverified: enough to tell a typo from someone trying a forged key.
      const claimed = readUnverifiedClaims(licenseKey) ?? {};
      const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : null);
      await this.#audit.record({ ...event, target: text(claimed.id), outcome: 'failure', details: { plan: text(claimed.plan), licensee: text(claimed.licensee), license_id: text(claimed.id), reason: (error as Error).message } });
      if (DocqaError.is(error, 'validation_failed')) {
        throw new DocqaError('validation_failed', error.message, { cause: error, errors: [{ field: 'body.license_key', message: error.message }] });
      }
      throw error;
    }
    await this.#audit.record({ ...event, target: state.licenseId, outcome: 'success', details: { plan: state.plan, licensee: state.licensee, license_id: state.licenseId } });
    return this.describe(state);
  }
}
