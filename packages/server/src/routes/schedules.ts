import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { schedulesTokens } from '@docqa/core/schedules';
import { defineRoute } from '../http/route.js';
import { idParams, pageQuery } from './identity-schemas.js';
import { identityTokens } from '@docqa/core/identity';

const scheduleSchema = z.object({
  id: z.uuid(),
  source_type: z.enum(['connector', 'integration']),
  source_id: z.uuid(),
  cron: z.string().describe('Five-field cron expression; the clock is UTC.'),
  enabled: z.boolean(),
  last_run: z.string().nullable(),
  next_run: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
nameSchema(scheduleSchema, 'Schedule');
const cron = z.string().trim().min(9).max(120);

export const scheduleRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/schedules',
    access: 'admin',
    plan: 'PRO',
    tag: 'Schedules',
    operationId: 'listSchedules',
    summary: 'Sync schedules',
    request: { query: pageQuery },
    responses: {
      200: {
        description: 'A page of schedules.',
        schema: z.object({
          items: z.array(scheduleSchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    deps: { schedules: schedulesTokens.service },
    handler: async ({ deps, query }) => ({ status: 200, body: await deps.schedules.list(query.limit, query.offset) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/schedules',
    access: 'admin',
    plan: 'PRO',
    tag: 'Schedules',
    operationId: 'createSchedule',
    summary: "Schedule a source's sync",
    request: {
      body: z.strictObject({
        source_type: z.enum(['connector', 'integration']),
        source_id: z.uuid(),
        cron,
        enabled: z.boolean().default(true),
      }),
    },
    responses: { 201: { description: 'Created.', schema: scheduleSchema } },
    deps: { schedules: schedulesTokens.service, identity: identityTokens.service },
    async handler({ deps, body, principal, req }) {
      const created = await deps.schedules.create(body);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'schedule', { action: 'create', ...body });
      return { status: 201, body: created };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/schedules/{id}',
    access: 'admin',
    plan: 'PRO',
    tag: 'Schedules',
    operationId: 'getSchedule',
    summary: 'One schedule',
    request: { params: idParams },
    responses: { 200: { description: 'The schedule.', schema: scheduleSchema } },
    deps: { schedules: schedulesTokens.service },
    handler: async ({ deps, params }) => ({ status: 200, body: await deps.schedules.get(params.id) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/schedules/{id}',
    access: 'admin',
    plan: 'PRO',
    tag: 'Schedules',
    operationId: 'updateSchedule',
    summary: 'Change the cron expression or enable/disable',
    request: {
      params: idParams,
      body: z
        .strictObject({ cron: cron.optional(), enabled: z.boolean().optional() })
        .refine((b) => b.cron !== undefined || b.enabled !== undefined, 'send cron or enabled'),
    },
    responses: { 200: { description: 'The schedule.', schema: scheduleSchema } },
    deps: { schedules: schedulesTokens.service, identity: identityTokens.service },
    async handler({ deps, params, body, principal, req }) {
      const updated = await deps.schedules.update(params.id, body);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'schedule', {
        action: 'update',
        id: params.id,
        ...body,
      });
      return { status: 200, body: updated };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/schedules/{id}',
    access: 'admin',
    plan: 'PRO',
    tag: 'Schedules',
    operationId: 'deleteSchedule',
    summary: 'Delete a schedule',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted.' } },
    deps: { schedules: schedulesTokens.service, identity: identityTokens.service },
    async handler({ deps, params, principal, req }) {
      await deps.schedules.delete(params.id);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'schedule', { action: 'delete', id: params.id });
      return { status: 204 };
    },
  }),
];
