import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { tokenPairSchema } from './identity-schemas.js';
import { identityTokens } from '@docqa/core/identity';

const code = z.string().trim().min(6).max(32);

export const mfaRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/auth/mfa/totp/setup',
    access: 'required',
    keyScope: 'none',
    tag: 'Authentication',
    operationId: 'setupTotp',
    summary: 'Start TOTP enrolment: a new secret and its otpauth URI',
    description: 'Show the URI as a QR code; TOTP is active only after /enable with a first code.',
    responses: {
      200: { description: 'The secret to enrol.', schema: z.object({ secret: z.string(), otpauth_uri: z.string() }) },
    },
    deps: { mfa: identityTokens.mfa },
    handler: async ({ deps, principal }) => ({ status: 200, body: await deps.mfa.setup(principal!) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/mfa/totp/enable',
    access: 'required',
    keyScope: 'none',
    tag: 'Authentication',
    operationId: 'enableTotp',
    summary: 'Turn TOTP on with a first code; answers the recovery codes once',
    request: { body: z.object({ code }) },
    responses: { 200: { description: 'Enabled.', schema: z.object({ recovery_codes: z.array(z.string()) }) } },
    deps: { mfa: identityTokens.mfa },
    handler: async ({ deps, principal, body }) => ({
      status: 200,
      body: await deps.mfa.enable(principal!, body.code),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/mfa/totp/disable',
    access: 'required',
    keyScope: 'none',
    tag: 'Authentication',
    operationId: 'disableTotp',
    summary: 'Turn TOTP off with a current code or the password',
    request: {
      body: z
        .object({ code: code.optional(), password: z.string().min(1).max(256).optional() })
        .refine((body) => body.code !== undefined || body.password !== undefined, 'send code or password'),
    },
    responses: { 204: { description: 'Disabled.' } },
    deps: { mfa: identityTokens.mfa },
    handler: async ({ deps, principal, body }) => {
      await deps.mfa.disable(principal!, body);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/mfa/verify',
    access: 'public',
    tag: 'Authentication',
    operationId: 'verifyTotpLogin',
    summary: 'Second sign-in step: the mfa_token of /login and a TOTP or recovery code',
    request: { body: z.object({ mfa_token: z.string().min(1).max(4096), code }) },
    responses: { 200: { description: 'Signed in.', schema: tokenPairSchema } },
    deps: { mfa: identityTokens.mfa },
    handler: async ({ deps, body, req }) => ({
      status: 200,
      body: await deps.mfa.verifyLogin(body.mfa_token, body.code, req.ip ?? null),
    }),
  }),
];
