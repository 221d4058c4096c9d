import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { plans } from '@docqa/plugin-api';
import { licenseTokens } from '@docqa/core/license';
import { defineRoute } from '../http/route.js';
import { documentsTokens } from '@docqa/core/documents';

const nullableCount = z.number().int().nullable();

const licenseSchema = z.object({
  plan: z.enum(plans).describe('The plan in effect: FREE without a license or once it has expired.'),
  licensee: z.string().nullable(),
  license_id: z.string().nullable(),
  expires_at: z.string().nullable().describe('ISO 8601; null without a license.'),
  lapsed: z
    .boolean()
    .describe('A license was applied but has expired: the plan fell back to FREE; no data was deleted.'),
  limits: z
    .object({ documents: nullableCount, file_size_bytes: nullableCount, storage_bytes: nullableCount })
    .describe('null: unlimited.'),
  usage: z
    .object({ documents: z.number().int(), storage_bytes: z.number().int() })
    .describe('What is stored now, counted as the limits count it.'),
});
nameSchema(licenseSchema, 'License');

export const licenseRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/license',
    access: 'required',
    tag: 'License',
    operationId: 'getLicense',
    summary: 'The license, the plan in effect, and usage against its limits',
    responses: { 200: { description: 'The license and usage.', schema: licenseSchema } },
    deps: { license: licenseTokens.service, documents: documentsTokens.service },
    // The same totals the upload and sync limits are checked against.
    handler: async ({ deps }) => ({
      status: 200,
      body: deps.license.describe(await deps.documents.repository.totals()),
      headers: { 'Cache-Control': 'no-store' },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/license',
    access: 'admin',
    tag: 'License',
    operationId: 'applyLicense',
    summary: 'Apply or replace the license without a restart',
    description:
      'The key is a compact JWS signed with Ed25519 (the contents of the license key file; surrounding ' +
      'whitespace is ignored). A key that does not verify, is malformed or has expired answers 422 and the ' +
      'previous license stays. Every attempt is audited as license.apply.',
    request: { body: z.strictObject({ license_key: z.string().min(1).max(16_384).describe('The license key.') }) },
    responses: { 200: { description: 'Applied; the license now in effect.', schema: licenseSchema } },
    deps: { license: licenseTokens.service, documents: documentsTokens.service },
    handler: async ({ deps, principal, req, body }) => {
      const state = await deps.license.apply(principal!, req.ip, body.license_key);
      return { status: 200, body: deps.license.describe(await deps.documents.repository.totals(), state) };
    },
  }),
];
