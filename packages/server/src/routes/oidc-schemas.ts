import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';

// Host names and IP addresses both: an IdP on a private network is often reached by address.
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

const fields = {
  display_name: z.string().trim().min(1).max(100),
  discovery_url: httpUrl,
  client_id: z.string().trim().min(1).max(512),
  client_secret: z.string().min(1).max(4096).nullable(),
  redirect_uri: httpUrl,
  scopes: z
    .string()
    .trim()
    .max(1024)
    .refine((scopes) => scopes.split(/\s+/).includes('openid'), 'must include openid'),
  admin_groups: z.array(z.string().trim().min(1).max(256)).max(100),
  groups_claim: z.string().trim().min(1).max(128),
  enabled: z.boolean(),
};

export const oidcProviderCreateBody = z.strictObject({
  name: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]{0,31}$/,
      'must be a lower-case slug: a-z, 0-9 and -, at most 32 characters, not starting with -',
    ),
  display_name: fields.display_name,
  discovery_url: fields.discovery_url,
  client_id: fields.client_id,
  client_secret: fields.client_secret.default(null),
  redirect_uri: fields.redirect_uri.optional(),
  scopes: fields.scopes.default('openid email profile'),
  admin_groups: fields.admin_groups.default([]),
  groups_claim: fields.groups_claim.default('groups'),
  enabled: fields.enabled.default(true),
});

export const oidcProviderUpdateBody = z
  .strictObject({
    display_name: fields.display_name.optional(),
    discovery_url: fields.discovery_url.optional(),
    client_id: fields.client_id.optional(),
    client_secret: fields.client_secret.optional(),
    redirect_uri: fields.redirect_uri.optional(),
    scopes: fields.scopes.optional(),
    admin_groups: fields.admin_groups.optional(),
    groups_claim: fields.groups_claim.optional(),
    enabled: fields.enabled.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'name at least one field to change');

export const oidcProviderSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  display_name: z.string(),
  discovery_url: z.string(),
  client_id: z.string(),
  client_secret: z.literal('***').nullable(),
  redirect_uri: z.string(),
  scopes: z.string(),
  admin_groups: z.array(z.string()),
  groups_claim: z.string(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
nameSchema(oidcProviderSchema, 'OidcProvider');
