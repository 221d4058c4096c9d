import type { OidcIdentity } from './oidc-accounts.js';

type Claims = Record<string, unknown>;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * The groups under `claim`, which may be a dotted path (Keycloak's `realm_access.roles`). IdPs send
 * a list, or a single name when there is one; anything else counts as no groups.
 */
export function groupsOf(claims: Claims, claim: string): string[] {
  let value: unknown = claims;
  for (const key of claim.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Claims)[key] : undefined;
  }
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === 'string');
  return [];
}

/**
 * The identity in verified claims. An address the IdP says it did not verify is left out: it
 * would otherwise claim the address in DocQA (where it is unique and receives password resets).
 */
export function identityOf(provider: string, claims: Claims, groupsClaim: string): OidcIdentity {
  const subject = text(claims.sub);
  if (!subject) throw new Error('the ID token has no subject');
  return {
    provider,
    subject,
    email: claims.email_verified === false ? null : text(claims.email),
    preferredUsername: text(claims.preferred_username),
    name: text(claims.name),
    groups: groupsOf(claims, groupsClaim),
  };
}

/** Whether the ID token lacks something the userinfo endpoint may add. */
export function needsUserInfo(claims: Claims, groupsClaim: string): boolean {
  return (
    text(claims.email) === null ||
    text(claims.preferred_username) === null ||
    groupsOf(claims, groupsClaim).length === 0
  );
}
