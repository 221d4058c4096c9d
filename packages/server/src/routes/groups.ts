import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { defineRoute } from '../http/route.js';
import { idParams, pageQuery } from './identity-schemas.js';
import { groupsTokens } from '@docqa/core/groups';
import { identityTokens } from '@docqa/core/identity';

const groupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  builtin: z.boolean(),
  member_count: z.number().int().nullable().describe('null for the built-in everyone group, which holds every user.'),
  created_at: z.string(),
  updated_at: z.string(),
});
nameSchema(groupSchema, 'Group');
const groupName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N} ._-]+$/u, 'may hold letters, digits, spaces and . _ - only');
const resourceParams = z.object({
  resource_type: z.enum(['connector', 'integration', 'document']),
  resource_id: z.string().min(1).max(200),
});
const accessSchema = z.object({
  resource_type: z.string(),
  resource_id: z.string(),
  group_ids: z.array(z.uuid()).describe('Empty: every signed-in user may see the resource.'),
});

export const groupRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/groups',
    access: 'admin',
    tag: 'Groups',
    operationId: 'listGroups',
    summary: 'List groups',
    description: 'On FREE and PRO only the built-in everyone group exists (spec 8.1).',
    request: { query: pageQuery },
    responses: {
      200: {
        description: 'A page of groups.',
        schema: z.object({
          items: z.array(groupSchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    deps: { groups: groupsTokens.service },
    async handler({ deps, query }) {
      const page = await deps.groups.list(query.limit, query.offset);
      return { status: 200, body: { ...page, limit: query.limit, offset: query.offset } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/groups',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Groups',
    operationId: 'createGroup',
    summary: 'Create a group',
    request: { body: z.strictObject({ name: groupName, description: z.string().max(500).default('') }) },
    responses: { 201: { description: 'Created.', schema: groupSchema } },
    deps: { groups: groupsTokens.service },
    handler: async ({ deps, body }) => ({
      status: 201,
      body: await deps.groups.create(body.name, body.description),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/groups/{id}',
    access: 'admin',
    tag: 'Groups',
    operationId: 'getGroup',
    summary: 'One group with its members',
    request: { params: idParams },
    responses: {
      200: {
        description: 'The group.',
        schema: groupSchema.extend({ members: z.array(z.object({ id: z.uuid(), username: z.string() })) }),
      },
    },
    deps: { groups: groupsTokens.service },
    handler: async ({ deps, params }) => ({
      status: 200,
      body: { ...(await deps.groups.get(params.id)), members: await deps.groups.members(params.id) },
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/groups/{id}',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Groups',
    operationId: 'updateGroup',
    summary: 'Rename or describe a group',
    request: {
      params: idParams,
      body: z.strictObject({ name: groupName.optional(), description: z.string().max(500).optional() }),
    },
    responses: { 200: { description: 'The group.', schema: groupSchema } },
    deps: { groups: groupsTokens.service },
    handler: async ({ deps, params, body }) => ({
      status: 200,
      body: await deps.groups.update(params.id, body),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/groups/{id}',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Groups',
    operationId: 'deleteGroup',
    summary: 'Delete a group (its access grants go with it)',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted.' } },
    deps: { groups: groupsTokens.service },
    async handler({ deps, params }) {
      await deps.groups.delete(params.id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/groups/{id}/members/{user_id}',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Groups',
    operationId: 'addGroupMember',
    summary: 'Add a user to a group',
    request: { params: idParams.extend({ user_id: z.uuid() }) },
    responses: { 204: { description: 'The user is a member.' } },
    deps: { groups: groupsTokens.service },
    async handler({ deps, params }) {
      await deps.groups.addMember(params.id, params.user_id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/groups/{id}/members/{user_id}',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Groups',
    operationId: 'removeGroupMember',
    summary: 'Remove a user from a group',
    request: { params: idParams.extend({ user_id: z.uuid() }) },
    responses: { 204: { description: 'The user is not a member.' } },
    deps: { groups: groupsTokens.service },
    async handler({ deps, params }) {
      await deps.groups.removeMember(params.id, params.user_id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/me/groups',
    access: 'required',
    tag: 'Groups',
    operationId: 'listOwnGroups',
    summary: 'The groups of the signed-in user',
    responses: {
      200: { description: 'Groups, the built-in everyone first.', schema: z.object({ items: z.array(groupSchema) }) },
    },
    deps: { groups: groupsTokens.service },
    handler: async ({ deps, principal }) => ({
      status: 200,
      body: { items: await deps.groups.groupsOfUser(principal!.userId) },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/access/{resource_type}/{resource_id}',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Groups',
    operationId: 'getResourceAccess',
    summary: 'The groups that may see a connector, integration or document',
    request: { params: resourceParams },
    responses: { 200: { description: 'The grants.', schema: accessSchema } },
    deps: { groups: groupsTokens.service },
    handler: async ({ deps, params }) => ({
      status: 200,
      body: { ...params, group_ids: await deps.groups.resourceGroups(params.resource_type, params.resource_id) },
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/access/{resource_type}/{resource_id}',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Groups',
    operationId: 'setResourceAccess',
    summary: 'Set the groups that may see a resource (empty: everyone)',
    description: 'Documents without grants of their own follow their connector or integration. Admins see everything.',
    request: { params: resourceParams, body: z.strictObject({ group_ids: z.array(z.uuid()).max(1000) }) },
    responses: { 200: { description: 'The grants now.', schema: accessSchema } },
    deps: { groups: groupsTokens.service, identity: identityTokens.service },
    async handler({ deps, params, body, principal, req }) {
      const groupIds = await deps.groups.setResourceGroups(params.resource_type, params.resource_id, body.group_ids);
      await deps.identity.recordConfigUpdate(principal, req.ip, `access.${params.resource_type}`, {
        resource_id: params.resource_id,
        group_ids: groupIds,
      });
      return { status: 200, body: { ...params, group_ids: groupIds } };
    },
  }),
];
