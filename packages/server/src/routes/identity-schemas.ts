import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';

export const tokenPairSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
});
nameSchema(tokenPairSchema, 'TokenPair');

export const userSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string().nullable(),
  role: z.enum(['admin', 'editor', 'viewer']),
  mfa_enabled: z.boolean(),
  sso_provider: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
nameSchema(userSchema, 'User');

export const usernameField = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}._@+-]+$/u, 'may hold letters, digits and . _ @ + - only');
// Bounded here so a huge body fails validation cheaply; the password policy itself is checked by the service.
export const passwordField = z.string().min(1).max(256);
export const emailField = z.email().max(254);
export const roleField = z.enum(['admin', 'editor', 'viewer']);

export const idParams = z.object({ id: z.uuid() });
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const messageSchema = z.object({ detail: z.string() });
