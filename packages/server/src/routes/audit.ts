import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { auditTokens } from '@docqa/core/audit';
import { defineRoute } from '../http/route.js';
import { idParams, pageQuery } from './identity-schemas.js';
import { identityTokens } from '@docqa/core/identity';

const entrySchema = z.object({
  id: z.uuid(),
  seq: z.number().int().describe('Position in the log; the hash chain runs in this order.'),
  occurred_at: z.string(),
  type: z.string().describe('chat.query, sync.all, config.update, license.apply, user.create, user.delete, …'),
  actor: z.object({ id: z.uuid(), username: z.string() }).nullable(),
  ip: z.string().nullable(),
  target: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  details: z.record(z.string(), z.unknown()),
  prev_hash: z.string(),
  hash: z.string().describe("SHA-256 over prev_hash and this entry's fields."),
});
nameSchema(entrySchema, 'AuditEntry');

const auditQuery = pageQuery.extend({
  type: z.string().max(100).optional().describe('Event type, e.g. chat.query.'),
  user: z.string().max(200).optional().describe('Actor: a user id or a user name.'),
  outcome: z.enum(['success', 'failure']).optional(),
  from: z.iso.datetime({ offset: true }).optional().describe('Entries at or after this time (ISO 8601).'),
  to: z.iso.datetime({ offset: true }).optional().describe('Entries before this time (ISO 8601).'),
});

const configSchema = z.object({
  retention_days: z
    .number()
    .int()
    .min(1)
    .max(36_500)
    .describe('RAG_AUDIT_RETENTION_DAYS: entries older than this are removed by the daily retention sweep.'),
});

const verifySchema = z.object({
  valid: z.boolean(),
  checked: z.number().int(),
  anchor: z
    .object({ hash: z.string(), after_seq: z.number().int().nullable() })
    .describe('Where the chain starts: the genesis hash, or the last entry the retention sweep removed.'),
  broken_at: z
    .object({
      id: z.uuid().nullable().describe('Null when the entry is gone: the newest entries were removed.'),
      seq: z.number().int(),
      reason: z.string(),
    })
    .nullable(),
});

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/audit',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Audit',
    operationId: 'listAuditEntries',
    summary: 'Query the append-only audit log, newest first',
    description: 'Entries are recorded while the plan is ENTERPRISE. Filters combine; `to` is exclusive.',
    request: { query: auditQuery },
    responses: {
      200: {
        description: 'A page of entries.',
        schema: z.object({
          items: z.array(entrySchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    deps: { audit: auditTokens.log },
    handler: async ({ deps, query }) => {
      const page = await deps.audit.query({
        limit: query.limit,
        offset: query.offset,
        ...(query.type ? { type: query.type } : {}),
        ...(query.user ? { user: query.user } : {}),
        ...(query.outcome ? { outcome: query.outcome } : {}),
        ...(query.from ? { from: new Date(query.from) } : {}),
        ...(query.to ? { to: new Date(query.to) } : {}),
      });
      return { status: 200, body: { ...page, limit: query.limit, offset: query.offset } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/audit/config',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Audit',
    operationId: 'getAuditConfig',
    summary: 'The audit retention policy',
    responses: { 200: { description: 'Retention.', schema: configSchema } },
    handler: ({ kernel }) => ({
      status: 200,
      body: { retention_days: Number(kernel.settings.get('RAG_AUDIT_RETENTION_DAYS')) },
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/audit/config',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Audit',
    operationId: 'updateAuditConfig',
    summary: 'Change the audit retention policy',
    description: 'Applies to every replica without a restart; recorded as config.update.',
    request: { body: configSchema.strict() },
    responses: { 200: { description: 'The policy now in effect.', schema: configSchema } },
    deps: { identity: identityTokens.service },
    handler: async ({ kernel, deps, principal, body, req }) => {
      await kernel.settings.set({ RAG_AUDIT_RETENTION_DAYS: body.retention_days }, principal!.username);
      await deps.identity.recordConfigUpdate(principal!, req.ip, 'audit.retention', {
        retention_days: body.retention_days,
      });
      return { status: 200, body: { retention_days: Number(kernel.settings.get('RAG_AUDIT_RETENTION_DAYS')) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/audit/verify',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Audit',
    operationId: 'verifyAuditChain',
    summary: 'Check the hash chain of the whole log',
    description:
      "Recomputes every entry's hash from the anchor on; `valid: false` names the " +
      'first entry that was changed, or that follows a removed one.',
    responses: { 200: { description: 'The verification result.', schema: verifySchema } },
    deps: { audit: auditTokens.log },
    handler: async ({ deps }) => ({ status: 200, body: await deps.audit.verify() }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/audit/{id}',
    access: 'admin',
    plan: 'ENTERPRISE',
    tag: 'Audit',
    operationId: 'getAuditEntry',
    summary: 'One audit entry',
    request: { params: idParams },
    responses: { 200: { description: 'The entry.', schema: entrySchema } },
    deps: { audit: auditTokens.log },
    handler: async ({ deps, params }) => ({ status: 200, body: await deps.audit.get(params.id) }),
  }),
];
