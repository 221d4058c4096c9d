import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { defineRoute } from '../http/route.js';
import { publicUser, identityTokens } from '@docqa/core/identity';
import {
  emailField,
  idParams,
  pageQuery,
  passwordField,
  roleField,
  userSchema,
  usernameField,
} from './identity-schemas.js';

const userList = z.object({
  items: z.array(userSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const userRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/auth/users',
    access: 'admin',
    tag: 'Users',
    operationId: 'listUsers',
    summary: 'List users',
    request: { query: pageQuery },
    responses: { 200: { description: 'A page of users, by user name.', schema: userList } },
    deps: { identity: identityTokens.service },
    async handler({ deps, query }) {
      const { items, total } = await deps.identity.users.list(query.limit, query.offset);
      return { status: 200, body: { items: items.map(publicUser), total, limit: query.limit, offset: query.offset } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/users',
    access: 'admin',
    tag: 'Users',
    operationId: 'createUser',
    summary: 'Create a user',
    description: 'Without a role the user is a viewer. With AUTH_REQUIRE_EMAIL an email is required.',
    request: {
      body: z.strictObject({
        username: usernameField,
        password: passwordField,
        role: roleField.default('viewer'),
        email: emailField.nullable().default(null),
      }),
    },
    responses: { 201: { description: 'Created.', schema: userSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, principal, body, req }) => ({
      status: 201,
      body: publicUser(await deps.identity.createUser(principal!, req.ip, body)),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/users/{id}',
    access: 'admin',
    tag: 'Users',
    operationId: 'getUser',
    summary: 'One user',
    request: { params: idParams },
    responses: { 200: { description: 'The user.', schema: userSchema } },
    deps: { identity: identityTokens.service },
    async handler({ deps, params }) {
      const user = await deps.identity.users.byId(params.id);
      if (!user) throw new DocqaError('not_found', `User ${params.id} was not found.`);
      return { status: 200, body: publicUser(user) };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/auth/users/{id}',
    access: 'admin',
    tag: 'Users',
    operationId: 'updateUser',
    summary: "Change a user's password, role or email",
    description: "The last admin cannot be demoted. A new password or role ends the user's sessions.",
    request: {
      params: idParams,
      body: z
        .strictObject({
          password: passwordField.optional(),
          role: roleField.optional(),
          email: emailField.nullable().optional(),
        })
        .refine((body) => Object.keys(body).length > 0, 'name at least one of password, role, email'),
    },
    responses: { 200: { description: 'The user.', schema: userSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ deps, principal, params, body, req }) => ({
      status: 200,
      body: publicUser(await deps.identity.updateUser(principal!, params.id, body, req.ip ?? null)),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/auth/users/{id}',
    access: 'admin',
    tag: 'Users',
    operationId: 'deleteUser',
    summary: 'Delete a user',
    description: 'The last admin cannot be deleted.',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted.' } },
    deps: { identity: identityTokens.service },
    async handler({ deps, principal, params, req }) {
      await deps.identity.deleteUser(principal!, req.ip, params.id);
      return { status: 204 };
    },
  }),
];
