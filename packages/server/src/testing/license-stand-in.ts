import { z } from 'zod';
import { defaultPlanLimits, definePlugin, type LicenseState, type Plan, type PlanLimits } from '@docqa/plugin-api';

/**
 * A license gate for tests and benchmarks whose plan and limits the caller decides, read on every
 * check, so a test can switch plans mid-run. Limits default to the plan's defaults.
 */
export function licenseStandIn(current: () => { plan: Plan; limits?: PlanLimits }) {
  return definePlugin({
    apiVersion: 1,
    kind: 'licenseGate',
    id: 'license-stand-in',
    configSchema: z.object({}),
    deps: {},
    init: () => ({
      current: (): LicenseState => {
        const { plan, limits } = current();
        return {
          plan,
          limits: limits ?? defaultPlanLimits[plan],
          licensee: 'test',
          licenseId: 'test',
          expiresAt: null,
          lapsed: false,
        };
      },
      apply: async () => {
        throw new Error('Applying licenses is not part of this stand-in.');
      },
    }),
  });
}
