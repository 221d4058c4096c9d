import * as client from 'openid-client';
import { DocqaError, type ConfigService, type Logger } from '@docqa/plugin-api';
import type { IdentityEnvironment } from './environment.js';
import type { Principal } from './principal.js';
import { createSecretBox } from '../../crypto/index.js';
import type { IdentityService } from './identity-service.js';
import { OidcAccounts, type OidcIdentity } from './oidc-accounts.js';
import { identityOf, needsUserInfo } from './oidc-claims.js';
import { describe, OidcDiscovery } from './oidc-discovery.js';
import { OidcLoginStates } from './oidc-login-state.js';
import {
  fromFallback,
  OidcProviderStore,
  type OidcProvider,
  type OidcProviderFields,
  type OidcProviderView,
} from './oidc-providers.js';
import type { TokenPair } from './tokens.js';

export interface OidcSignIn {
  tokens: TokenPair;
  /** The web UI path the sign-in started from (`/` when none was given). */
  returnTo: string;
}

/** Only a path of DocQA's own web UI: `//host` or `/\host` would send the tokens elsewhere. */
export function isSafeReturnPath(path: string): boolean {
  return /^\/(?![/\\])[^\s\\#]*$/.test(path) && path.length <= 512;
}

/**
 * OpenID Connect single sign-on: the authorization code flow with PKCE (S256), state and nonce,
 * then DocQA's own token pair. Providers are the stored ones; while none is stored, the OIDC_*
 * variables' (read-only) fallback.
 */
export class OidcService {
  readonly providers: OidcProviderStore;
  readonly #startup: ConfigService;
  readonly #identity: IdentityService;
  readonly #states: OidcLoginStates;
  readonly #accounts: OidcAccounts;
  readonly #discovery: OidcDiscovery;
  readonly #logger: Logger;

  constructor(env: IdentityEnvironment, identity: IdentityService) {
    this.#startup = env.startup;
    this.#identity = identity;
    const box = createSecretBox(env.config.MFA_ENCRYPTION_KEY);
    this.providers = new OidcProviderStore(env.db, box);
    this.#states = new OidcLoginStates(env.db, box);
    this.#logger = env.logger.child({ component: 'oidc' });
    this.#accounts = new OidcAccounts(env.db, identity.users, env.audit, this.#logger);
    // Providers of OIDC_<NAME>_DISCOVERY_URL variables are the operator's: their hosts are allowed.
    // Those stored through the admin API must be public or in OUTBOUND_ALLOW.
    const operatorUrls = env.startup.oidcProviders.map((provider) => provider.discoveryUrl);
    const outbound = env.outbound.configured(operatorUrls);
    this.#discovery = new OidcDiscovery(!env.startup.production, outbound.fetch);
  }

  /** Enabled providers for the sign-in page. */
  async enabledProviders(): Promise<Array<{ name: string; display_name: string }>> {
    const stored = (await this.providers.count()) > 0;
    const providers = stored ? await this.providers.enabledNames() : this.#startup.oidcProviders.map(fromFallback);
    return providers.map((provider) => ({ name: provider.name, display_name: provider.displayName }));
  }

  /** The IdP's authorization URL for a new sign-in; the state, verifier and nonce wait for the callback. */
  async start(name: string, returnTo: string | null = null): Promise<string> {
    const provider = await this.#provider(name);
    const configuration = await this.#discovery.configuration(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await this.#states.save(state, { providerName: provider.name, codeVerifier, nonce, returnTo });
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: provider.redirectUri,
      scope: provider.scopes.join(' '),
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return url.href;
  }

  /**
   * Finishes a sign-in. Only the query of `requestUrl` is used: it is put on the provider's
   * registered redirect URI, which is what the IdP saw, whatever proxies did to the request's host.
   */
  async callback(name: string, requestUrl: URL): Promise<OidcSignIn> {
    const provider = await this.#provider(name);
    const state = requestUrl.searchParams.get('state');
    const login = state ? await this.#states.take(state) : null;
    if (!state || !login || login.providerName !== provider.name) {
      throw new DocqaError(
        'unauthorized',
        'This sign-in is unknown, expired or already finished; start the single sign-on again.',
      );
    }
    const currentUrl = new URL(provider.redirectUri);
    for (const [key, value] of requestUrl.searchParams) currentUrl.searchParams.append(key, value);

    let identity: OidcIdentity;
    try {
      const configuration = await this.#discovery.configuration(provider);
      const grant = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      const idClaims = grant.claims() as Record<string, unknown>;
      const claims = needsUserInfo(idClaims, provider.groupsClaim)
        ? await this.#withUserInfo(configuration, grant.access_token, idClaims, provider.name)
        : idClaims;
      identity = identityOf(provider.name, claims, provider.groupsClaim);
    } catch (error) {
      this.#logger.warn({ provider: provider.name, reason: describe(error) }, 'a single sign-on was refused');
      throw new DocqaError(
        'unauthorized',
        `Single sign-on with ${provider.displayName} failed: ${describe(error)}. Start the sign-in again.`,
      );
    }

    const user = await this.#accounts.signIn(identity, provider.adminGroups);
    return { tokens: await this.#identity.tokens.issuePair(user), returnTo: login.returnTo ?? '/' };
  }

  /** Userinfo adds what an IdP keeps out of the ID token; the signed ID token wins where both speak. */
  async #withUserInfo(
    configuration: client.Configuration,
    accessToken: string,
    idClaims: Record<string, unknown>,
    providerName: string,
  ): Promise<Record<string, unknown>> {
    if (!configuration.serverMetadata().userinfo_endpoint || typeof idClaims.sub !== 'string') return idClaims;
    try {
      const userInfo = await client.fetchUserInfo(configuration, accessToken, idClaims.sub);
      return { ...userInfo, ...idClaims };
    } catch (error) {
      this.#logger.warn(
        { provider: providerName, reason: describe(error) },
        'the userinfo endpoint failed; signing in with the ID token alone',
      );
      return idClaims;
    }
  }

  async #provider(name: string): Promise<OidcProvider> {
    const stored = (await this.providers.count()) > 0;
    const provider = stored
      ? await this.providers.byName(name)
      : (this.#startup.oidcProviders.map(fromFallback).find((candidate) => candidate.name === name) ?? null);
    if (!provider || !provider.enabled)
      throw new DocqaError('not_found', `There is no enabled single sign-on provider named "${name}".`);
    return provider;
  }

  // Admin management. Every change is audited (without the secret) and drops the cached discovery.

  async getProvider(id: string): Promise<OidcProviderView> {
    const provider = await this.providers.byId(id);
    if (!provider) throw new DocqaError('not_found', `OIDC provider ${id} was not found.`);
    return provider;
  }

  async createProvider(
    actor: Principal,
    ip: string | undefined,
    fields: OidcProviderFields,
  ): Promise<OidcProviderView> {
    const created = await this.providers.create(fields);
    this.#discovery.forget(created.name);
    await this.#identity.recordConfigUpdate(actor, ip, 'oidc.provider', {
      action: 'create',
      id: created.id,
      name: created.name,
      discovery_url: created.discovery_url,
      client_id: created.client_id,
      enabled: created.enabled,
      client_secret_set: created.client_secret !== null,
    });
    return created;
  }

  async updateProvider(
    actor: Principal,
    ip: string | undefined,
    id: string,
    changes: Partial<Omit<OidcProviderFields, 'name'>>,
  ): Promise<OidcProviderView> {
    const updated = await this.providers.update(id, changes);
    this.#discovery.forget(updated.name);
    await this.#identity.recordConfigUpdate(actor, ip, 'oidc.provider', {
      action: 'update',
      id,
      name: updated.name,
      changed: Object.keys(changes).filter((key) => changes[key as keyof typeof changes] !== undefined),
    });
    return updated;
  }

  async deleteProvider(actor: Principal, ip: string | undefined, id: string): Promise<void> {
    const deleted = await this.providers.delete(id);
    if (!deleted) throw new DocqaError('not_found', `OIDC provider ${id} was not found.`);
    this.#discovery.forget(deleted.name);
    await this.#identity.recordConfigUpdate(actor, ip, 'oidc.provider', { action: 'delete', id, name: deleted.name });
  }
}
