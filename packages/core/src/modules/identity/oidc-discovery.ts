import * as client from 'openid-client';
import { DocqaError, type GuardedFetch } from '@docqa/plugin-api';
import type { OidcProvider } from './oidc-providers.js';

const cacheMilliseconds = 10 * 60 * 1000;
const wellKnownSuffix = '/.well-known/openid-configuration';

interface CachedConfiguration {
  /** What the configuration was built from; a provider edited since then is discovered again. */
  fingerprint: string;
  configuration: client.Configuration;
  expiresAt: number;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The issuer for openid-client's discovery. Given the issuer, openid-client checks that the
 * document names that same issuer; given the document's own URL it cannot. Admins paste the
 * .well-known URL (the spec's OIDC_<NAME>_DISCOVERY_URL), so its suffix is taken off first.
 */
export function issuerOf(discoveryUrl: string): URL {
  const url = new URL(discoveryUrl);
  if (url.pathname.endsWith(wellKnownSuffix)) url.pathname = url.pathname.slice(0, -wellKnownSuffix.length) || '/';
  return url;
}

/**
 * Discovered client configurations, one per provider, kept for 10 minutes so a sign-in does not
 * fetch the IdP's metadata every time, while key rotations and edits still arrive soon.
 */
export class OidcDiscovery {
  readonly #cache = new Map<string, CachedConfiguration>();

  /**
   * `allowLoopbackHttp`: plain http to an IdP on this machine (development, tests); never elsewhere.
   * `fetch`: the process's outbound policy (OUTBOUND_ALLOW), for discovery and for every later call
   * of the configuration (token, keys, user info), which the discovery document chooses.
   */
  constructor(
    private readonly allowLoopbackHttp: boolean,
    private readonly fetch: GuardedFetch,
  ) {}

  async configuration(provider: OidcProvider): Promise<client.Configuration> {
    const fingerprint = JSON.stringify([provider.discoveryUrl, provider.clientId, provider.clientSecret ?? null]);
    const cached = this.#cache.get(provider.name);
    if (cached && cached.fingerprint === fingerprint && cached.expiresAt > Date.now()) return cached.configuration;
    const configuration = await this.#discover(provider);
    this.#cache.set(provider.name, { fingerprint, configuration, expiresAt: Date.now() + cacheMilliseconds });
    return configuration;
  }

  forget(name: string): void {
    this.#cache.delete(name);
  }

  async #discover(provider: OidcProvider): Promise<client.Configuration> {
    const issuer = issuerOf(provider.discoveryUrl);
    const insecure = issuer.protocol === 'http:';
    if (insecure && !(this.allowLoopbackHttp && isLoopbackHost(issuer.hostname))) {
      throw new DocqaError(
        'unavailable',
        `The OIDC provider "${provider.name}" must be reached over https; plain http is only allowed for an IdP on this machine outside production.`,
      );
    }
    // RFC 6749 makes HTTP Basic the one client authentication every IdP supports; a public
    // client (no secret) relies on PKCE alone.
    const authentication = provider.clientSecret ? client.ClientSecretBasic(provider.clientSecret) : client.None();
    try {
      return await client.discovery(
        issuer,
        provider.clientId,
        { redirect_uris: [provider.redirectUri], response_types: ['code'] },
        authentication,
        {
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
          [client.customFetch]: this.fetch as client.CustomFetch,
          timeout: 10,
        },
      );
    } catch (error) {
      throw new DocqaError(
        'unavailable',
        `The OIDC provider "${provider.name}" could not be reached or answered invalid metadata (${describe(error)}).`,
        { cause: error },
      );
    }
  }
}

/** A short, secret-free reason from an openid-client error, for a detail people can act on. */
export function describe(error: unknown): string {
  // The outbound policy's refusal says which address and which setting: pass it on as it is.
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (DocqaError.is(cause)) return cause.message;
    cause = (cause as { cause?: unknown }).cause;
  }
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
