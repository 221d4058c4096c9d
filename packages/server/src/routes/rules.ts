import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { defineRoute } from '../http/route.js';
import { pageQuery } from './identity-schemas.js';
import { rulesTokens } from '@docqa/core/rules';
import { identityTokens } from '@docqa/core/identity';

const sourceParams = z.object({ source_id: z.uuid().describe('A connector or integration id.') });
const ruleParams = sourceParams.extend({ rule_id: z.uuid() });
const ruleSchema = z.object({
  id: z.uuid(),
  field_name: z.string(),
  pattern: z.string(),
  query_pattern: z.string().nullable(),
  scope: z.enum(['full', 'header', 'filename']),
  level: z.enum(['document', 'chunk']),
  chunk_boundary: z.boolean(),
  priority: z.number().int(),
  source_id: z.uuid(),
  source_type: z.enum(['connector', 'integration']),
  created_at: z.string(),
  updated_at: z.string(),
});
nameSchema(ruleSchema, 'Rule');
// Checked in full by the rule engine (Python regex syntax, exactly one capture group); bounded here.
// Any other member (a misspelt field, `__proto__`) is a 422: a rule that silently lost a field
// would index differently from what its author wrote. The read-only fields a rule is answered with
// may come back in a PUT of what a GET returned, and are ignored.
const ignored = z.unknown().optional().describe('Read-only; accepted and ignored.');
const ruleBody = z.strictObject({
  field_name: z.string().max(64),
  pattern: z.string().max(2000),
  query_pattern: z.string().max(2000).nullable().optional(),
  scope: z.string().max(16),
  level: z.string().max(16),
  chunk_boundary: z.boolean().optional(),
  priority: z.number().optional(),
  id: ignored,
  source_id: ignored,
  source_type: ignored,
  created_at: ignored,
  updated_at: ignored,
});

export const ruleRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/metadata/{source_id}/rules',
    access: 'required',
    plan: 'PRO',
    tag: 'Metadata rules',
    operationId: 'listMetadataRules',
    summary: 'Rules of a source, highest priority first',
    request: { params: sourceParams, query: pageQuery },
    responses: {
      200: {
        description: 'A page of the rules.',
        schema: z.object({
          items: z.array(ruleSchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    deps: { rules: rulesTokens.service },
    handler: async ({ deps, params, query }) => ({
      status: 200,
      body: { ...(await deps.rules.page(params.source_id, query)), limit: query.limit, offset: query.offset },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/metadata/{source_id}/rules',
    access: 'editor',
    plan: 'PRO',
    tag: 'Metadata rules',
    operationId: 'createMetadataRule',
    summary: 'Create a rule',
    description:
      '`pattern` (and `query_pattern`) use Python regular expression syntax and must hold ' +
      'exactly one capture group; a bad one answers 422 naming the field.',
    request: { params: sourceParams, body: ruleBody },
    responses: { 201: { description: 'Created.', schema: ruleSchema } },
    deps: { identity: identityTokens.service, rules: rulesTokens.service },
    async handler({ deps, params, body, principal, req }) {
      const created = await deps.rules.create(params.source_id, body);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'metadata.rule', {
        action: 'create',
        source_id: params.source_id,
        id: created.id,
        field_name: created.field_name,
      });
      return { status: 201, body: created };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/metadata/{source_id}/rules/{rule_id}',
    access: 'editor',
    plan: 'PRO',
    tag: 'Metadata rules',
    operationId: 'updateMetadataRule',
    summary: 'Replace a rule',
    request: { params: ruleParams, body: ruleBody },
    responses: { 200: { description: 'The rule.', schema: ruleSchema } },
    deps: { identity: identityTokens.service, rules: rulesTokens.service },
    async handler({ deps, params, body, principal, req }) {
      const updated = await deps.rules.update(params.source_id, params.rule_id, body);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'metadata.rule', {
        action: 'update',
        source_id: params.source_id,
        id: params.rule_id,
        field_name: updated.field_name,
      });
      return { status: 200, body: updated };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/metadata/{source_id}/rules/{rule_id}',
    access: 'editor',
    plan: 'PRO',
    tag: 'Metadata rules',
    operationId: 'deleteMetadataRule',
    summary: 'Delete a rule',
    request: { params: ruleParams },
    responses: { 204: { description: 'Deleted.' } },
    deps: { identity: identityTokens.service, rules: rulesTokens.service },
    async handler({ deps, params, principal, req }) {
      await deps.rules.delete(params.source_id, params.rule_id);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'metadata.rule', {
        action: 'delete',
        source_id: params.source_id,
        id: params.rule_id,
      });
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/metadata/{source_id}/test-rule',
    access: 'editor',
    plan: 'PRO',
    tag: 'Metadata rules',
    operationId: 'testMetadataRule',
    summary: 'Try a rule on sample text without saving it',
    request: {
      params: sourceParams,
      body: z.strictObject({
        rule: ruleBody,
        sample_text: z.string().max(100_000),
        filename: z.string().max(255).default('sample.txt'),
      }),
    },
    responses: {
      200: {
        description: 'What the rule would extract.',
        schema: z.object({
          document: z.record(z.string(), z.string()),
          chunks: z.array(
            z.object({
              text: z.string(),
              values: z.record(z.string(), z.string()),
              origin: z.record(z.string(), z.enum(['self', 'inherited'])),
            }),
          ),
          boundaries: z.array(z.number().int()),
          error: z.string().nullable(),
        }),
      },
    },
    deps: { rules: rulesTokens.service },
    handler: async ({ deps, params, body }) => ({
      status: 200,
      body: await deps.rules.test(params.source_id, body),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/metadata/{source_id}/refresh',
    access: 'editor',
    plan: 'PRO',
    tag: 'Metadata rules',
    operationId: 'refreshMetadata',
    summary: 'Re-apply the rules to indexed chunks as a job',
    request: { params: sourceParams },
    responses: { 202: { description: 'The job.', schema: z.object({ job_id: z.uuid() }) } },
    deps: { rules: rulesTokens.service },
    handler: async ({ deps, params }) => ({
      status: 202,
      body: { job_id: await deps.rules.requestRefresh(params.source_id) },
    }),
  }),
];
