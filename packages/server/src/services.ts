import type { Kernel } from '@docqa/kernel';
import { IdentityService } from './identity/identity-service.js';
import { MfaService } from './identity/mfa-service.js';

/** The application services routes work with, built once per server from the kernel. */
export interface AppServices {
  identity: IdentityService;
  mfa: MfaService;
}

export function createServices(kernel: Kernel): AppServices {
  const identity = new IdentityService(kernel);
  return { identity, mfa: new MfaService(kernel.db, identity.users, identity.tokens, kernel.config.values.MFA_ENCRYPTION_KEY) };
}
