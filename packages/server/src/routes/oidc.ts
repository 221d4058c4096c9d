import type { RequestHandler } from 'express';
import { z } from 'zod';
import { defineRoute, type MiddlewareContext } from '../http/route.js';
import { clientRateLimit } from '../http/reset-rate-limit.js';
import { isSafeReturnPath, identityTokens } from '@docqa/core/identity';
import { idParams, pageQuery, tokenPairSchema } from './identity-schemas.js';
import { oidcProviderCreateBody, oidcProviderSchema, oidcProviderUpdateBody } from './oidc-schemas.js';

// Any string: a name that is no provider's answers 404, not a validation error.
const nameParams = z.object({ name: z.string().min(1).max(64) });
// Tokens and one-time redirects must not be kept by browsers or proxies.
const noStore = { 'Cache-Control': 'no-store' };

// Each start writes a login state row and sends the browser to the IdP: a limiter per client
// address, built when the route is mounted, so two servers in one process never share buckets.
function startLimiter({ kernel }: MiddlewareContext): RequestHandler[] {
  const { OIDC_START_RATE_LIMIT, OIDC_START_RATE_LIMIT_BURST } = kernel.config.values;
  return [
    clientRateLimit(OIDC_START_RATE_LIMIT, OIDC_START_RATE_LIMIT_BURST, 'sign-in starts (OIDC_START_RATE_LIMIT)'),
  ];
}

export const oidcRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/auth/oidc/providers',
    access: 'public',
    tag: 'Authentication',
    operationId: 'listOidcSignInProviders',
    summary: 'Single sign-on providers to offer on the sign-in page',
    description: 'The enabled providers: the stored ones, or while none is stored, those of the OIDC_* variables.',
    responses: {
      200: {
        description: 'Names and display names.',
        schema: z.object({ items: z.array(z.object({ name: z.string(), display_name: z.string() })) }),
      },
    },
    deps: { oidc: identityTokens.oidc },
    handler: async ({ deps }) => ({ status: 200, body: { items: await deps.oidc.enabledProviders() } }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/oidc/{name}/login',
    access: 'public',
    tag: 'Authentication',
    operationId: 'startOidcSignIn',
    summary: 'Start single sign-on: a redirect to the identity provider',
    description:
      'Redirects (302) to the IdP with PKCE (S256), state and nonce; the sign-in must finish at the callback ' +
      'within 10 minutes. `return_to` is a web UI path the callback sends the browser back to.',
    request: {
      params: nameParams,
      query: z.object({
        return_to: z
          .string()
          .refine(isSafeReturnPath, 'must be a path of this site, starting with a single /')
          .optional(),
      }),
    },
    middleware: startLimiter,
    responses: { 302: { description: 'To the identity provider (Location).' } },
    deps: { oidc: identityTokens.oidc },
    handler: async ({ deps, params, query }) => {
      const location = await deps.oidc.start(params.name, query.return_to ?? null);
      return { status: 302, headers: { Location: location, ...noStore } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/oidc/{name}/callback',
    access: 'public',
    tag: 'Authentication',
    operationId: 'finishOidcSignIn',
    summary: 'Finish single sign-on: the IdP redirects here',
    description:
      'Checks the state (single use, 10 minutes), exchanges the code with the ' +
      'PKCE verifier and verifies the ID token and its nonce. ' +
      'A client whose Accept prefers application/json gets the token pair as JSON (200). A browser gets a 302 to ' +
      "`PUBLIC_URL` + the login's `return_to` (default `/`) with " +
      '`#access_token=…&refresh_token=…&token_type=bearer`: the web UI reads ' +
      'the tokens from the fragment, which browsers never send to a server or ' +
      'put in a Referer. Refusals by the IdP, a replayed or ' +
      'unknown state and failed exchanges answer 401.',
    request: { params: nameParams },
    responses: {
      200: { description: 'Signed in (Accept: application/json).', schema: tokenPairSchema },
      302: { description: 'Signed in; to the web UI with the tokens in the fragment.' },
    },
    deps: { oidc: identityTokens.oidc },
    handler: async ({ kernel, deps, params, req }) => {
      // Only the query matters; the host part is a placeholder the service replaces with the redirect URI.
      const signIn = await deps.oidc.callback(params.name, new URL(req.originalUrl, 'http://callback.invalid'));
      if (req.accepts(['text/html', 'application/json']) === 'application/json')
        return { status: 200, body: signIn.tokens, headers: noStore };
      const fragment = new URLSearchParams({
        access_token: signIn.tokens.access_token,
        refresh_token: signIn.tokens.refresh_token,
        token_type: signIn.tokens.token_type,
      });
      const base = String(kernel.config.values.PUBLIC_URL).replace(/\/+$/, '');
      return { status: 302, headers: { Location: `${base}${signIn.returnTo}#${fragment.toString()}`, ...noStore } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/oidc/providers',
    access: 'admin',
    tag: 'Single sign-on',
    operationId: 'listOidcProviders',
    summary: 'List stored OIDC providers',
    description:
      'Client secrets are write-only: `"***"` when set, null when not. ' +
      'Providers from OIDC_* variables are not listed here.',
    request: { query: pageQuery },
    responses: {
      200: {
        description: 'A page of providers, by name.',
        schema: z.object({
          items: z.array(oidcProviderSchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    deps: { oidc: identityTokens.oidc },
    async handler({ deps, query }) {
      const { items, total } = await deps.oidc.providers.list(query.limit, query.offset);
      return { status: 200, body: { items, total, limit: query.limit, offset: query.offset } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/oidc/providers',
    access: 'admin',
    tag: 'Single sign-on',
    operationId: 'createOidcProvider',
    summary: 'Add an OIDC provider',
    description:
      'Once any provider is stored, the OIDC_* variables are no longer used. `redirect_uri` defaults to ' +
      'PUBLIC_URL + /api/auth/oidc/{name}/callback. A duplicate name answers 409.',
    request: { body: oidcProviderCreateBody },
    responses: { 201: { description: 'Created.', schema: oidcProviderSchema } },
    deps: { oidc: identityTokens.oidc },
    async handler({ kernel, deps, principal, body, req }) {
      const redirectUri =
        body.redirect_uri ??
        `${String(kernel.config.values.PUBLIC_URL).replace(/\/+$/, '')}/api/auth/oidc/${body.name}/callback`;
      return {
        status: 201,
        body: await deps.oidc.createProvider(principal!, req.ip, { ...body, redirect_uri: redirectUri }),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/oidc/providers/{id}',
    access: 'admin',
    tag: 'Single sign-on',
    operationId: 'getOidcProvider',
    summary: 'One stored OIDC provider',
    request: { params: idParams },
    responses: { 200: { description: 'The provider.', schema: oidcProviderSchema } },
    deps: { oidc: identityTokens.oidc },
    handler: async ({ deps, params }) => ({ status: 200, body: await deps.oidc.getProvider(params.id) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/admin/oidc/providers/{id}',
    access: 'admin',
    tag: 'Single sign-on',
    operationId: 'updateOidcProvider',
    summary: 'Change an OIDC provider',
    description:
      'Send the fields to change. `client_secret`: a string replaces it, null removes it, ' +
      'leaving it out keeps it. The name cannot change: users are linked to it.',
    request: { params: idParams, body: oidcProviderUpdateBody },
    responses: { 200: { description: 'The provider.', schema: oidcProviderSchema } },
    deps: { oidc: identityTokens.oidc },
    handler: async ({ deps, principal, params, body, req }) => ({
      status: 200,
      body: await deps.oidc.updateProvider(principal!, req.ip, params.id, body),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/admin/oidc/providers/{id}',
    access: 'admin',
    tag: 'Single sign-on',
    operationId: 'deleteOidcProvider',
    summary: 'Remove an OIDC provider',
    description:
      'Its users keep their accounts but cannot sign in through it until a provider of the same name exists again.',
    request: { params: idParams },
    responses: { 204: { description: 'Removed.' } },
    deps: { oidc: identityTokens.oidc },
    async handler({ deps, principal, params, req }) {
      await deps.oidc.deleteProvider(principal!, req.ip, params.id);
      return { status: 204 };
    },
  }),
];
