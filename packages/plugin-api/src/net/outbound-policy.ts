import { OutboundGuard } from './outbound-guard.js';
import { createGuardedFetch, type GuardedFetch } from './guarded-fetch.js';

/**
 * The one outbound policy of a DocQA process (`tokens.outbound`): every request the server starts
 * on its own (OIDC discovery and token calls, model downloads, a hosted LLM or embedder, a crawl, an
 * S3 or git endpoint) connects only to public addresses, or to what OUTBOUND_ALLOW lists.
 *
 * Two ways to allow more, both written by whoever deploys the server, never by a user of the API:
 * - `configured`: the hosts of URLs the operator set in the configuration (HOSTED_BASE_URL,
 *   INFERENCE_URL, OIDC_<NAME>_DISCOVERY_URL, a plugin's `baseUrl` in docqa.config.json). Writing
 *   the URL there is the allowance, for that host name only: a redirect elsewhere, or an endpoint
 *   a discovery document names on another host, is checked like any other address.
 * - `extend`: a plugin option such as integration-web's `outboundAllow`, for that plugin's sources.
 */
export interface OutboundPolicy {
  /** OUTBOUND_ALLOW alone: for URLs stored through the API (OIDC providers, model catalogue entries). */
  readonly guard: OutboundGuard;
  /** fetch() through `guard`, every redirect hop checked. */
  readonly fetch: GuardedFetch;
  /** The policy with the hosts of operator-configured URLs allowed by name. */
  configured(urls: ReadonlyArray<string | URL | undefined | null>): { guard: OutboundGuard; fetch: GuardedFetch };
  /** OUTBOUND_ALLOW and `allow` (a plugin's option, named by `setting` in refusals). */
  extend(allow: readonly string[], setting: string): OutboundGuard;
}

export const processOutboundSetting = 'the OUTBOUND_ALLOW variable';

/** A URL's host as an allow-list entry: IPv6 literals lose their brackets. */
export function hostOfUrl(url: string | URL): string | null {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1') || null;
  } catch {
    return null;
  }
}

export function createOutboundPolicy(processAllow: readonly string[]): OutboundPolicy {
  const guard = new OutboundGuard({ allow: processAllow, setting: processOutboundSetting });
  return {
    guard,
    fetch: createGuardedFetch(guard),
    configured(urls) {
      const hosts = urls.flatMap((url) => (url ? (hostOfUrl(url) ?? []) : []));
      const allowing = new OutboundGuard({ allow: [...processAllow, ...hosts], setting: processOutboundSetting });
      return { guard: allowing, fetch: createGuardedFetch(allowing) };
    },
    extend: (allow, setting) =>
      new OutboundGuard({ allow: [...processAllow, ...allow], setting: `${setting} (or ${processOutboundSetting})` }),
  };
}
