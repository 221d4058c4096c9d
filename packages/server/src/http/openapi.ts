import { z } from 'zod';
import type { AnyRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

/**
 * A schema named with `.meta({ id })` (User, Job, ...) that a response uses goes to
 * components.schemas, so generated clients (packages/client) have a type of that name; request
 * bodies and parameters keep theirs inline, since their input side (defaults optional) differs.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', named?: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _dialect, $defs, ...rest } = converted as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!$defs) return rest;
  if (io === 'input' || !named) return inlineRefs(rest, $defs) as JsonSchema;
  for (const [id, definition] of Object.entries($defs)) {
    const json = JSON.parse(JSON.stringify(definition, (_key, value: unknown) => moveRef(value))) as JsonSchema;
    if (named[id] && JSON.stringify(named[id]) !== JSON.stringify(json))
      throw new Error(`Two different schemas are named ${id} in the OpenAPI document.`);
    named[id] = json;
  }
  return JSON.parse(JSON.stringify(rest, (_key, value: unknown) => moveRef(value))) as JsonSchema;
}

const defsRef = /^#\/\$defs\/(.+)$/;

function moveRef(value: unknown): unknown {
  if (typeof value === 'string' && defsRef.test(value)) return value.replace(defsRef, '#/components/schemas/$1');
  return value;
}

function inlineRefs(value: unknown, defs: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(item, defs));
  if (!value || typeof value !== 'object') return value;
  const { $ref, ...rest } = value as JsonSchema;
  const target = typeof $ref === 'string' ? defsRef.exec($ref)?.[1] : undefined;
  const inlined = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, inlineRefs(item, defs)]));
  if (target && defs[target]) return { ...(inlineRefs(defs[target], defs) as JsonSchema), ...inlined };
  return $ref === undefined ? inlined : { $ref, ...inlined };
}

export const errorBodySchema = z.object({
  detail: z.string().describe('A sentence a person can act on.'),
  code: z.string().describe('Stable snake_case code, see docs/errors.md.'),
  errors: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .optional()
    .describe('Field errors of a validation failure.'),
  required_plan: z.string().optional(),
  limit: z.number().optional(),
  current: z.number().optional(),
});

const standardErrors: Record<number, string> = {
  400: 'Malformed JSON or wrong content type (bad_request).',
  401: 'Missing, invalid or expired token (unauthorized, token_expired).',
  403: 'Role or plan below what the endpoint needs (forbidden, plan_required, plan_limit).',
  404: 'Unknown id (not_found).',
  422: 'Validation failure (validation_failed) with field errors.',
  429: 'Rate limited (rate_limited); see Retry-After.',
  503: 'A dependency is down (unavailable).',
};

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

/** The OpenAPI 3.1 document, generated from the same schemas that validate requests. */
export function buildOpenApi(routes: readonly AnyRoute[], info: { version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const named: Record<string, JsonSchema> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      responses[status] = {
        description: spec.description,
        ...(spec.schema
          ? {
              content: {
                [spec.contentType ?? 'application/json']: { schema: jsonSchema(spec.schema, 'output', named) },
              },
            }
          : {}),
      };
    }
    const errorStatuses = Object.keys(standardErrors)
      .map(Number)
      .filter((status) => {
        if (route.access === 'public' && (status === 401 || status === 403)) return false;
        if (!route.request && (status === 400 || status === 422)) return false;
        return true;
      });
    for (const status of errorStatuses) {
      responses[String(status)] ??= { $ref: `#/components/responses/Error${status}` };
    }
    responses.default ??= { $ref: '#/components/responses/Error' };
    const body = route.request?.body;
    (paths[route.path] ??= {})[route.method] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      security: route.access === 'public' ? [] : [{ bearerAuth: [] }],
      'x-docqa-access': route.access,
      ...(route.plan ? { 'x-docqa-plan': route.plan } : {}),
      parameters: [...parameters(route.request?.params, 'path'), ...parameters(route.request?.query, 'query')],
      ...(body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body, 'input') } } } }
        : {}),
      responses,
    };
  }
  const errorResponses = Object.fromEntries(
    Object.entries(standardErrors).map(([status, description]) => [
      `Error${status}`,
      { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'DocQA',
      version: info.version,
      description:
        'Self-hosted document question answering. Every failure answers `{detail, code}`; see docs/errors.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: jsonSchema(errorBodySchema, 'output'), ...named },
      responses: {
        ...errorResponses,
        Error: {
          description: 'Unexpected failure (internal).',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}

/**
 * Names a response schema in the OpenAPI document (components.schemas), so generated clients have
 * a type of that name. It keeps the schema's description; zod's `.meta({ id })` would make a copy.
 */
export function nameSchema(schema: z.ZodType, id: string): void {
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
}
