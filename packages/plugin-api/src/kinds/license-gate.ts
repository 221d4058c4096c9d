export const plans = ['FREE', 'PRO', 'ENTERPRISE'] as const;
export type Plan = (typeof plans)[number];

export interface PlanLimits {
  /** null: unlimited. */
  documents: number | null;
  fileSizeBytes: number | null;
  storageBytes: number | null;
}

export interface LicenseState {
  plan: Plan;
  limits: PlanLimits;
  licensee: string | null;
  licenseId: string | null;
  expiresAt: Date | null;
  /** Set when a license was applied but no longer counts (expired), so the plan fell back to FREE. */
  lapsed: boolean;
}

export interface LicenseGate {
  current(): LicenseState;
  /** Verifies and applies a license key; throws DocqaError(validation_failed) and keeps the old one. */
  apply(licenseKey: string): Promise<LicenseState>;
  /**
   * What a key claims without verifying it, for the audit entry of a refused key: enough to tell a
   * typo from a forged key. Null when the key cannot be read at all.
   */
  describeKey?(licenseKey: string): { plan?: unknown; licensee?: unknown; id?: unknown } | null;
  /**
   * The license this process stored from its configuration at start (LICENSE_KEY), for the audit
   * log; null when it stored none (no key, or the database held it or a later one already). Only
   * the process that stored it reports it, so replicas started together record it once.
   */
  readonly appliedAtStart?: LicenseState | null;
}

export function planAtLeast(plan: Plan, required: Plan): boolean {
  return plans.indexOf(plan) >= plans.indexOf(required);
}

const mib = 1024 * 1024;
const gib = 1024 * mib;

/** The decisions file's limits where a license does not set them; ENTERPRISE is unlimited unless it does. */
export const defaultPlanLimits: Readonly<Record<Plan, PlanLimits>> = {
  FREE: { documents: 100, fileSizeBytes: 10 * mib, storageBytes: 1 * gib },
  PRO: { documents: 10_000, fileSizeBytes: 100 * mib, storageBytes: 100 * gib },
  ENTERPRISE: { documents: null, fileSizeBytes: null, storageBytes: null },
};
