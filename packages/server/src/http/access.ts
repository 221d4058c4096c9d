import type { Request, Response } from 'express';
import { DocqaError, planAtLeast, type Plan } from '@docqa/plugin-api';
import { licenseTokens } from '@docqa/core/license';
import type { Kernel } from '@docqa/kernel';
import type { Access, AnyRoute, KeyScope, Principal } from './route.js';

/** Turns a request's credentials into a principal; null when it carries none. Throws 401 on bad ones. */
export interface Authenticator {
  authenticate(req: Request, res: Response): Promise<Principal | null>;
}

const roleRank: Record<Principal['role'], number> = { viewer: 0, editor: 1, admin: 2 };
const requiredRank: Record<Exclude<Access, 'public'>, number> = { required: 0, editor: 1, admin: 2 };

/**
 * The scope an API key needs for a route: its own `keyScope`, else admin routes need `admin`,
 * editor routes `write`, and routes open to every role `read` to look (GET) and `write` to change.
 */
export function requiredKeyScope(route: Pick<AnyRoute, 'access' | 'method' | 'keyScope'>): KeyScope | 'none' | null {
  if (route.access === 'public') return null;
  if (route.keyScope) return route.keyScope;
  if (route.access === 'admin') return 'admin';
  if (route.access === 'editor') return 'write';
  return route.method === 'get' ? 'read' : 'write';
}

/**
 * The order every endpoint keeps: authentication, then role (and an API key's scope), then plan.
 * Ids and bodies are looked at only after this returns, so a caller who may not use an endpoint
 * learns nothing from it.
 */
export async function checkAccess(
  kernel: Kernel,
  authenticator: Authenticator,
  req: Request,
  res: Response,
  access: Access,
  plan: Plan | undefined,
  keyScope: KeyScope | 'none' | null = null,
): Promise<Principal | null> {
  if (access === 'public') return null;
  const principal = await authenticator.authenticate(req, res);
  if (!principal)
    throw new DocqaError('unauthorized', 'This endpoint needs a bearer token (Authorization: Bearer <access token>).');
  if (roleRank[principal.role] < requiredRank[access]) {
    throw new DocqaError(
      'forbidden',
      `This endpoint needs the ${access === 'editor' ? 'editor or admin' : access} role.`,
    );
  }
  // A key acts as its user (the role above, read now) and no further than its scopes.
  if (principal.apiKey && keyScope !== null) {
    if (keyScope === 'none') {
      throw new DocqaError('forbidden', 'API keys cannot use this endpoint; sign in with a password or SSO.');
    }
    if (!principal.apiKey.scopes.includes(keyScope)) {
      const detail = `This API key lacks the ${keyScope} scope this endpoint needs.`;
      throw new DocqaError('forbidden', detail, { extra: { required_scope: keyScope } });
    }
  }
  if (plan) {
    const current = kernel.resolve(licenseTokens.service).plan();
    if (!planAtLeast(current, plan)) {
      throw new DocqaError(
        'plan_required',
        `This feature needs the ${plan} plan or higher; this installation runs ${current}.`,
        { extra: { required_plan: plan } },
      );
    }
  }
  return principal;
}
