import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { DocqaError } from '@docqa/plugin-api';
import { defineRoute } from '../http/route.js';
import { idParams } from './identity-schemas.js';
import { identityTokens } from '@docqa/core/identity';

const scopeField = z.enum(['read', 'write', 'admin']);

const apiKeySchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe('The start of the key, to recognise it; the rest is never shown again.'),
  scopes: z.array(scopeField),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable().describe('To the minute.'),
});
nameSchema(apiKeySchema, 'ApiKey');
const createdKeySchema = apiKeySchema.extend({
  key: z.string().describe('The key itself, shown only in this answer: `docqa_` and 43 characters.'),
});
const keyList = z.object({ items: z.array(apiKeySchema) });
const keyParams = z.object({ id: z.uuid() });
const userKeyParams = z.object({ id: z.uuid(), key_id: z.uuid() });

const createBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: z
    .array(scopeField)
    .min(1)
    .max(3)
    .default(['read'])
    .describe('read: search, chat, documents; write: upload, delete, sources; admin: admin routes. Within the role.'),
  expires_in_days: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .nullable()
    .default(null)
    .describe('Left out or null: the key does not expire.'),
});

// Keys are managed with an access token only (keyScope 'none'): a leaked key cannot mint more keys.
export const apiKeyRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/auth/api-keys',
    access: 'required',
    keyScope: 'none',
    tag: 'API keys',
    operationId: 'createApiKey',
    summary: 'Create a personal API key',
    description: [
      'The answer holds the key, once; only its SHA-256 is stored. Send it as `Authorization: Bearer <key>`.',
      "It acts as its user, within its scopes and the user's role at each request.",
    ].join(' '),
    request: { body: createBody },
    responses: {
      201: { description: 'Created; keep the key now.', schema: createdKeySchema },
      422: { description: "A scope beyond the caller's role, or an invalid field." },
    },
    deps: { identity: identityTokens.service },
    async handler({ deps, principal, body, req }) {
      const fields = { name: body.name, scopes: body.scopes, expiresInDays: body.expires_in_days };
      return { status: 201, body: await deps.identity.apiKeys.create(principal!, fields, req.ip ?? null) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/api-keys',
    access: 'required',
    keyScope: 'none',
    tag: 'API keys',
    operationId: 'listApiKeys',
    summary: "The caller's API keys (not revoked), without their secrets",
    responses: { 200: { description: 'Oldest first.', schema: keyList } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, principal }) => ({
      status: 200,
      body: { items: await deps.identity.apiKeys.list(principal!.userId) },
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/auth/api-keys/{id}',
    access: 'required',
    keyScope: 'none',
    tag: 'API keys',
    operationId: 'revokeApiKey',
    summary: "Revoke one of the caller's API keys",
    description: 'The key is refused from the next request on.',
    request: { params: keyParams },
    responses: { 204: { description: 'Revoked.' }, 404: { description: "No such key of the caller's." } },
    deps: { identity: identityTokens.service },
    async handler({ deps, principal, params, req }) {
      await deps.identity.apiKeys.revoke(principal!, principal!.userId, params.id, req.ip ?? null);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/users/{id}/api-keys',
    access: 'admin',
    keyScope: 'none',
    tag: 'API keys',
    operationId: 'listUserApiKeys',
    summary: "A user's API keys (admin)",
    request: { params: idParams },
    responses: { 200: { description: 'Oldest first.', schema: keyList }, 404: { description: 'No such user.' } },
    deps: { identity: identityTokens.service },
    async handler({ deps, params }) {
      const user = await deps.identity.users.byId(params.id);
      if (!user) throw new DocqaError('not_found', `User ${params.id} was not found.`);
      return { status: 200, body: { items: await deps.identity.apiKeys.list(params.id) } };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/auth/users/{id}/api-keys/{key_id}',
    access: 'admin',
    keyScope: 'none',
    tag: 'API keys',
    operationId: 'revokeUserApiKey',
    summary: "Revoke a user's API key (admin)",
    request: { params: userKeyParams },
    responses: { 204: { description: 'Revoked.' }, 404: { description: 'No such key of this user.' } },
    deps: { identity: identityTokens.service },
    async handler({ deps, principal, params, req }) {
      await deps.identity.apiKeys.revoke(principal!, params.id, params.key_id, req.ip ?? null);
      return { status: 204 };
    },
  }),
];
