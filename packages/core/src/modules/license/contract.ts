import { createToken, type LicenseState, type Plan, type PlanLimits } from '@docqa/plugin-api';
import type { Principal } from '../identity/contract.js';

// What other code may know of the license module: its token, its service and the view it answers with.

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

/** What is stored now, counted as the plan's limits count it (the documents module knows it). */
export interface LicenseUsage {
  documents: number;
  bytes: number;
}

export interface LicenseService {
  /** The license in effect; FREE when the edition loads no license gate (decisions file). */
  state(): LicenseState;
  plan(): Plan;
  limits(): PlanLimits;
  describe(usage: LicenseUsage, state?: LicenseState): LicenseView;
  /** Applies a key; either way the attempt is audited with what the key names, never the key. */
  apply(principal: Principal, ip: string | undefined, licenseKey: string): Promise<LicenseState>;
}

export const licenseTokens = {
  service: createToken<LicenseService>('license.service'),
};
