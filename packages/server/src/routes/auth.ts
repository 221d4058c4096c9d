import type { RequestHandler } from 'express';
import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { defineRoute, type MiddlewareContext } from '../http/route.js';
import { publicUser, identityTokens } from '@docqa/core/identity';
import { resetRateLimit } from '../http/reset-rate-limit.js';
import { emailField, messageSchema, passwordField, tokenPairSchema, userSchema } from './identity-schemas.js';

const loginResult = z.union([tokenPairSchema, z.object({ mfa_required: z.literal(true), mfa_token: z.string() })]);

// One limiter per app for both reset endpoints, as nginx's single zone is; two servers in one
// process (tests, embedding) never share buckets or settings.
const resetLimiterKey = Symbol('password reset limiter');
function resetLimiter({ kernel, perApp }: MiddlewareContext): RequestHandler[] {
  const { RATE_LIMIT_RESET, RATE_LIMIT_RESET_BURST } = kernel.config.values;
  return [perApp(resetLimiterKey, () => resetRateLimit(RATE_LIMIT_RESET, RATE_LIMIT_RESET_BURST))];
}

// The smallest work a forgot-password request takes, so a slow database does not tell accounts apart.
const forgotPasswordFloorMs = 150;

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/auth/login',
    access: 'public',
    tag: 'Authentication',
    operationId: 'login',
    summary: 'Sign in with user name and password',
    description:
      'Answers the token pair, or `{mfa_required, mfa_token}` when the account ' +
      'has TOTP enabled (then call /api/auth/mfa/verify).',
    request: { body: z.object({ username: z.string().min(1).max(256), password: passwordField }) },
    responses: { 200: { description: 'Signed in, or the TOTP step is next.', schema: loginResult } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, body, req }) => ({
      status: 200,
      body: await deps.identity.login(body.username, body.password, req.ip ?? null),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/refresh',
    access: 'public',
    tag: 'Authentication',
    operationId: 'refreshToken',
    summary: 'Exchange a refresh token for a new token pair',
    description:
      'The refresh token is rotated: each works once. Using one twice ends that sign-in (every token of its family).',
    request: { body: z.object({ refresh_token: z.string().min(1).max(4096) }) },
    responses: { 200: { description: 'A new pair.', schema: tokenPairSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, body }) => ({ status: 200, body: await deps.identity.refresh(body.refresh_token) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/logout-all',
    access: 'required',
    keyScope: 'none',
    tag: 'Authentication',
    operationId: 'logoutEverywhere',
    summary: 'Sign out everywhere: every token of this account stops working',
    responses: { 204: { description: 'Signed out everywhere.' } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, principal }) => {
      await deps.identity.logoutEverywhere(principal!);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/forgot-password',
    access: 'public',
    tag: 'Authentication',
    operationId: 'forgotPassword',
    summary: 'Ask for a password reset email',
    description:
      'Always answers 200 with the same body, whether or not the address belongs to an ' +
      'account. Rate limited (RATE_LIMIT_RESET, RATE_LIMIT_RESET_BURST).',
    middleware: resetLimiter,
    request: { body: z.object({ email: z.string().min(1).max(254) }) },
    responses: { 200: { description: 'Accepted.', schema: messageSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, body }) => {
      const started = Date.now();
      deps.identity.forgotPassword(body.email);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, forgotPasswordFloorMs - (Date.now() - started))));
      return {
        status: 200,
        body: { detail: 'If this address belongs to an account, a link to reset its password is on its way.' },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/reset-password',
    access: 'public',
    tag: 'Authentication',
    operationId: 'resetPassword',
    summary: 'Set a new password with a single-use reset token',
    description:
      'The token comes from the reset email and works once, for 30 minutes. Every ' +
      'session of the account ends. Rate limited like forgot-password.',
    middleware: resetLimiter,
    request: { body: z.object({ token: z.string().min(1).max(512), new_password: passwordField }) },
    responses: { 200: { description: 'The password is set.', schema: messageSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, body }) => {
      await deps.identity.resetPassword(body.token, body.new_password);
      return { status: 200, body: { detail: 'The password is set; sign in with it.' } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/me',
    access: 'required',
    tag: 'Authentication',
    operationId: 'getCurrentUser',
    summary: 'The signed-in user',
    responses: { 200: { description: 'The user.', schema: userSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, principal }) => {
      const user = await deps.identity.users.byId(principal!.userId);
      // Deleted since the token's check (on another replica, whose change counts here within 5 s).
      if (!user) throw new DocqaError('unauthorized', 'The account of this token no longer exists.');
      return { status: 200, body: publicUser(user) };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/auth/me/email',
    access: 'required',
    keyScope: 'none',
    tag: 'Authentication',
    operationId: 'setOwnEmail',
    summary: "Set or change the signed-in user's email",
    request: { body: z.object({ email: emailField.nullable() }) },
    responses: { 200: { description: 'The user.', schema: userSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, principal, body }) => ({
      status: 200,
      body: publicUser(await deps.identity.setOwnEmail(principal!, body.email)),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/auth/password',
    access: 'required',
    keyScope: 'none',
    tag: 'Authentication',
    operationId: 'changePassword',
    summary: "Change the signed-in user's password",
    description:
      'Needs the current password. Every older token of the account stops ' +
      'working; the answer is a new pair for this client.',
    request: { body: z.object({ current_password: passwordField, new_password: passwordField }) },
    responses: { 200: { description: 'A new pair.', schema: tokenPairSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, principal, body, req }) => ({
      status: 200,
      body: await deps.identity.changePassword(principal!, body.current_password, body.new_password, req.ip ?? null),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/auth/settings',
    access: 'admin',
    tag: 'Administration',
    operationId: 'updateAuthSettings',
    summary: 'Change token lifetimes without a restart',
    request: {
      body: z
        .strictObject({
          access_token_expire_seconds: z.number().int().min(30).max(86_400).optional(),
          refresh_token_expire_seconds: z.number().int().min(60).max(31_536_000).optional(),
        })
        .refine((body) => Object.keys(body).length > 0, 'name at least one setting'),
    },
    responses: {
      200: {
        description: 'The authentication settings now in effect.',
        schema: z.object({ access_token_expire_seconds: z.number(), refresh_token_expire_seconds: z.number() }),
      },
    },
    deps: { identity: identityTokens.service },
    async handler({ kernel, deps, principal, body, req }) {
      const changes = {
        ...(body.access_token_expire_seconds !== undefined
          ? { ACCESS_TOKEN_EXPIRE_SECONDS: body.access_token_expire_seconds }
          : {}),
        ...(body.refresh_token_expire_seconds !== undefined
          ? { REFRESH_TOKEN_EXPIRE_SECONDS: body.refresh_token_expire_seconds }
          : {}),
      };
      const all = await kernel.settings.set(changes, principal!.username);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'auth.settings', changes);
      return {
        status: 200,
        body: {
          access_token_expire_seconds: all.ACCESS_TOKEN_EXPIRE_SECONDS as number,
          refresh_token_expire_seconds: all.REFRESH_TOKEN_EXPIRE_SECONDS as number,
        },
      };
    },
  }),
];
