import { createToken } from '@docqa/plugin-api';
import type { IdentityService } from './identity-service.js';
import type { MfaService } from './mfa-service.js';
import type { OidcService } from './oidc-service.js';

// What other code may know of the identity module: the caller every domain area speaks of, the
// tokens of its services (accounts and sign-in, MFA, OpenID sign-on) and the shapes they answer in.

export type { Principal, Role } from './principal.js';
export type { IdentityService, LoginResult } from './identity-service.js';
export type { MfaService } from './mfa-service.js';
export type { OidcService, OidcSignIn } from './oidc-service.js';
export type { TokenClaims, TokenPair, TokenService, TokenType } from './tokens.js';
export type { PublicUser, UserRepository, UserRow } from './users.js';
export type { ApiKeyGrant, ApiKeyService, KeyScope, PublicApiKey } from './api-keys.js';
export { publicUser, roles } from './users.js';
export { apiKeyPrefix, keyScopes, scopesForRole } from './api-keys.js';
export { isSafeReturnPath } from './oidc-service.js';
export { jwtSecretKey } from './tokens.js';

export const identityTokens = {
  /** Accounts, sign-in, sessions, API keys and the sign-in throttle. */
  service: createToken<IdentityService>('identity.service'),
  mfa: createToken<MfaService>('identity.mfa'),
  oidc: createToken<OidcService>('identity.oidc'),
};
