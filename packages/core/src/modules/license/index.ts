import { defineModule, optional, providerTokens, tokens } from '@docqa/plugin-api';
import { licenseTokens } from './contract.js';
import { GatedLicense } from './license-service.js';

/** The plan in effect and its limits, read through whichever license gate the edition loads, if any. */
export const licenseModule = defineModule({
  id: 'license',
  deps: { gate: optional(providerTokens.licenseGate), audit: tokens.audit },
  provides: { service: licenseTokens.service },
  init: ({ deps }) => ({ service: new GatedLicense(deps.gate, deps.audit) }),
  // After the modules start, where the audit log stores by the plan: a key from the configuration is
  // audited like one applied through the API, without an actor.
  onStart: async ({ deps }) => {
    const state = deps.gate?.appliedAtStart;
    if (!state) return;
    const details = { plan: state.plan, licensee: state.licensee, license_id: state.licenseId, source: 'LICENSE_KEY' };
    await deps.audit.record({
      type: 'license.apply',
      actor: null,
      target: state.licenseId,
      outcome: 'success',
      details,
    });
  },
});
