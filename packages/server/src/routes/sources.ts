import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import type { SourceKind } from '@docqa/core/sources';
import { idParams, pageQuery } from './identity-schemas.js';
import { sourcesTokens } from '@docqa/core/sources';
import { identityTokens } from '@docqa/core/identity';
import { syncTokens } from '@docqa/core/sync';

const sourceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.string().describe('The plugin type: filesystem, web, s3, git, ...'),
  config: z
    .record(z.string(), z.unknown())
    .describe('The plugin\'s options; secret ones answer "***" (send "***" back to keep them).'),
  enabled: z.boolean(),
  last_sync_at: z.string().nullable(),
  last_sync_status: z.string().nullable(),
  last_error: z.string().nullable(),
  document_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
nameSchema(sourceSchema, 'Source');
const sourceBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  type: z.string().min(1).max(50),
  config: z.record(z.string(), z.unknown()),
  enabled: z.boolean().default(true),
});

/** CRUD and sync of one kind of source; connectors and integrations share everything but names. */
function sourceRoutes(kind: SourceKind, base: string, tag: string, syncVerb: 'scan' | 'sync'): AnyRoute[] {
  const Noun = kind === 'connector' ? 'Connector' : 'Integration';
  return [
    defineRoute({
      method: 'get',
      path: base,
      access: 'required',
      tag,
      operationId: `list${Noun}s`,
      summary: `List ${kind}s`,
      request: { query: pageQuery },
      responses: {
        200: {
          description: `A page of ${kind}s.`,
          schema: z.object({
            items: z.array(sourceSchema),
            total: z.number().int(),
            limit: z.number().int(),
            offset: z.number().int(),
          }),
        },
      },
      deps: { sources: sourcesTokens.service },
      async handler({ deps, query }) {
        const page = await deps.sources.list(kind, query.limit, query.offset);
        return {
          status: 200,
          body: {
            items: await Promise.all(page.items.map((row) => deps.sources.present(row))),
            total: page.total,
            limit: query.limit,
            offset: query.offset,
          },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: base,
      access: 'admin',
      tag,
      operationId: `create${Noun}`,
      summary: `Create a ${kind}`,
      description:
        'The config is validated by the plugin of `type` (and opened once, so paths and credentials are checked).',
      request: { body: sourceBody },
      responses: { 201: { description: 'Created.', schema: sourceSchema } },
      deps: { identity: identityTokens.service, sources: sourcesTokens.service },
      async handler({ deps, body, principal, req }) {
        const created = await deps.sources.create(kind, body);
        await deps.identity.recordConfigUpdate(principal, req.ip, kind, {
          action: 'create',
          id: created.id,
          name: created.name,
          type: created.type,
        });
        return { status: 201, body: await deps.sources.present(created) };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/{id}`,
      access: 'required',
      tag,
      operationId: `get${Noun}`,
      summary: `One ${kind}`,
      request: { params: idParams },
      responses: { 200: { description: `The ${kind}.`, schema: sourceSchema } },
      deps: { sources: sourcesTokens.service },
      handler: async ({ deps, params }) => ({
        status: 200,
        body: await deps.sources.present(await deps.sources.get(kind, params.id)),
      }),
    }),
    defineRoute({
      method: 'put',
      path: `${base}/{id}`,
      access: 'admin',
      tag,
      operationId: `update${Noun}`,
      summary: `Update a ${kind}`,
      request: { params: idParams, body: sourceBody },
      responses: { 200: { description: `The ${kind}.`, schema: sourceSchema } },
      deps: { identity: identityTokens.service, sources: sourcesTokens.service },
      async handler({ deps, params, body, principal, req }) {
        const updated = await deps.sources.update(kind, params.id, body);
        // The config's field names, never its values: some of them are secrets.
        await deps.identity.recordConfigUpdate(principal, req.ip, kind, {
          action: 'update',
          id: updated.id,
          name: updated.name,
          fields: Object.keys(body.config ?? {}),
          enabled: updated.enabled,
        });
        return { status: 200, body: await deps.sources.present(updated) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/{id}`,
      access: 'admin',
      tag,
      operationId: `delete${Noun}`,
      summary: `Delete a ${kind} and its documents`,
      request: { params: idParams },
      responses: { 204: { description: 'Deleted.' } },
      deps: { identity: identityTokens.service, syncs: syncTokens.service },
      async handler({ deps, params, principal, req }) {
        await deps.syncs.deleteSource(kind, params.id);
        await deps.identity.recordConfigUpdate(principal, req.ip, kind, { action: 'delete', id: params.id });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${base}/{id}/${syncVerb}`,
      access: 'editor',
      tag,
      operationId: `${syncVerb}${Noun}`,
      summary: `Start a ${syncVerb} of a ${kind}`,
      request: { params: idParams },
      responses: { 202: { description: 'The job.', schema: z.object({ job_id: z.uuid() }) } },
      deps: { sources: sourcesTokens.service, syncs: syncTokens.service },
      handler: async ({ deps, params }) => ({
        status: 202,
        body: { job_id: await deps.syncs.start(await deps.sources.get(kind, params.id), syncVerb) },
      }),
    }),
  ];
}

export const connectorRoutes: AnyRoute[] = [
  // Before /api/connectors/{id}: "sync-all" is not an id.
  defineRoute({
    method: 'post',
    path: '/api/connectors/sync-all',
    access: 'editor',
    tag: 'Connectors',
    operationId: 'syncAllSources',
    summary: 'Sync every enabled connector and integration',
    responses: { 202: { description: 'One job per source.', schema: z.object({ job_ids: z.array(z.uuid()) }) } },
    deps: { syncs: syncTokens.service },
    handler: async ({ deps, principal, req }) => ({
      status: 202,
      body: { job_ids: await deps.syncs.startAll(principal!, req.ip) },
    }),
  }),
  ...sourceRoutes('connector', '/api/connectors', 'Connectors', 'scan'),
];

export const integrationRoutes: AnyRoute[] = sourceRoutes('integration', '/api/integrations', 'Integrations', 'sync');
