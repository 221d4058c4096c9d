import { z } from 'zod';
import { plans } from '@docqa/plugin-api';
import { defineRoute, type RouteContext } from '../http/route.js';
import { LicenseService } from '../license/license-service.js';

const nullableCount = z.number().int().nullable();

const licenseSchema = z.object({
  plan: z.enum(plans).describe('The plan in effect: FREE without a license or once it has expired.'),
  licensee: z.string().nullable(),
  license_id: z.string().nullable(),
  expires_at: z.string().nullable().describe('ISO 8601; null without a license.'),
  lapsed: z.boolean().describe('A license was applied but has expired: the plan fell back to FREE; no data was deleted.'),
  limits: z.object({ documents: nullableCount, file_size_bytes: nullableCount, storage_bytes: nullableCount }).describe('null: unlimited.'),
  usage: z.object({ documents: z.number().int(), storage_bytes: z.number().int() }).describe('What is stored now, counted as the limits count it.'),
});

// Stateless over the kernel and the document table, so it is cheap to build per request.
const licenseService = ({ kernel, services }: Pick<RouteContext<unknown, unknown, unknown>, 'kernel' | 'services'>) => new LicenseService(kernel, services.documents.repository);

export const licenseRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/license',
    access: 'required',
    tag: 'License',
    operationId: 'getLicense',
    summary: 'The license, the plan in effect, and usage against its limits',
    responses: { 200: { description: 'The license and usage.', schema: licenseSchema } },
    handler: async (context) => ({ status: 200, body: await licenseService(context).describe(), headers: { 'Cache-Control': 'no-store' } }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/license',
    access: 'admin',
    tag: 'License',
    operationId: 'applyLicense',
    summary: 'Apply or replace the license without a restart',
    description: 'The key is a compact JWS signed with Ed25519 (the contents of the license key file; surrounding whitespace is ignored). A key that does not verify, is malformed or has expired answers 422 and the previous license stays. Every attempt is audited as license.apply.',
    request: { body: z.strictObject({ license_key: z.string().min(1).max(16_384).describe('The license key.') }) },
    responses: { 200: { description: 'Applied; the license now in effect.', schema: licenseSchema } },
    handler: async (context) => ({ status: 200, body: await licenseService(context).apply(context.principal!, context.req.ip, context.body.license_key) }),
  }),
];
