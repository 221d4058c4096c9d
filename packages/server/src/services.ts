import type { Kernel } from '@docqa/kernel';
import { IdentityService } from './identity/identity-service.js';
import { MfaService } from './identity/mfa-service.js';
import { OidcService } from './identity/oidc-service.js';
import { GroupsService } from './identity/groups-service.js';
import { DocumentService } from './documents/document-service.js';
import { IndexService } from './documents/index-service.js';
import { currentPlan } from './http/access.js';

/** The application services routes work with, built once per server from the kernel. */
export interface AppServices {
  identity: IdentityService;
  mfa: MfaService;
  groups: GroupsService;
  oidc: OidcService;
  documents: DocumentService;
  index: IndexService;
}

export function createServices(kernel: Kernel): AppServices {
  const identity = new IdentityService(kernel);
  const mfa = new MfaService(kernel.db, identity.users, identity.tokens, kernel.config.values.MFA_ENCRYPTION_KEY);
  const groups = new GroupsService(kernel.db, () => currentPlan(kernel));
  const documents = new DocumentService(kernel, groups);
  const index = new IndexService(kernel);
  return { identity, mfa, groups, documents, index, oidc: new OidcService(kernel, identity) };
}
