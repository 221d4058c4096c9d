import { defineModule, DocqaError, optional, providerTokens, tokens } from '@docqa/plugin-api';
import { identityTokens } from './contract.js';
import { identityConfig, type IdentityEnvironment } from './environment.js';
import { IdentityService } from './identity-service.js';
import { MfaService } from './mfa-service.js';
import { identityMigrations } from './migrations.js';
import { OidcService } from './oidc-service.js';

/**
 * Identity (docs/authentication.md): users and roles, passwords, access and refresh tokens, API
 * keys, TOTP second factors, OpenID Connect sign-on and the sign-in throttle. Every process makes
 * sure the default admin exists once the modules have started.
 */
export const identityModule = defineModule({
  id: 'identity',
  deps: {
    db: tokens.db,
    settings: tokens.settings,
    config: tokens.config,
    audit: tokens.audit,
    outbound: tokens.outbound,
    email: optional(providerTokens.email),
  },
  provides: { service: identityTokens.service, mfa: identityTokens.mfa, oidc: identityTokens.oidc },
  migrations: identityMigrations,
  init: ({ deps, logger }) => {
    const env: IdentityEnvironment = { ...deps, logger, config: identityConfig(deps.config), startup: deps.config };
    const identity = new IdentityService(env);
    const mfa = new MfaService(
      env.db,
      identity.users,
      identity.tokens,
      env.config.MFA_ENCRYPTION_KEY,
      identity.signIns,
    );
    return { service: identity, mfa, oidc: new OidcService(env, identity) };
  },
  onStart: async ({ provided }) => {
    // Replicas started together race to create the default admin; the ones that lose find it made.
    await provided.service.ensureDefaultAdmin().catch((error: unknown) => {
      if (!DocqaError.is(error, 'conflict')) throw error;
    });
  },
});
