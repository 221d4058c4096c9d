import { defineModule, optional, providerTokens, tokens } from '@docqa/plugin-api';
import { licenseTokens } from './contract.js';
import { GatedLicense } from './license-service.js';

/** The plan in effect and its limits, read through whichever license gate the edition loads, if any. */
export const licenseModule = defineModule({
  id: 'license',
  deps: { gate: optional(providerTokens.licenseGate), audit: tokens.audit },
  provides: { service: licenseTokens.service },
  init: ({ deps }) => ({ service: new GatedLicense(deps.gate, deps.audit) }),
});
