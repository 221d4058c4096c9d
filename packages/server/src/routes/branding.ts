import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { defineRoute } from '../http/route.js';
import { brandingSchema, brandingTokens } from '@docqa/core/branding';
import { readLogoUpload } from '../http/read-logo-upload.js';
import { identityTokens } from '@docqa/core/identity';

const brandingResponse = z.object({
  name: z.string(),
  colors: z.object({ primary: z.string(), accent: z.string(), background: z.string(), text: z.string() }),
  texts: z.object({ welcome: z.string(), chat_placeholder: z.string(), footer: z.string(), support_email: z.string() }),
  logo_url: z.string().nullable().describe('Changes whenever the logo changes, so it can be cached for long.'),
  updated_at: z.string().nullable(),
});
nameSchema(brandingResponse, 'Branding');

const logoResponse = z.object({
  media_type: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  sha256: z.string(),
  logo_url: z.string(),
});

export const brandingRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/branding',
    access: 'public',
    tag: 'Branding',
    operationId: 'getBranding',
    summary: 'Name, colours, texts and logo address of this installation',
    responses: {
      200: { description: "The branding (DocQA's defaults until an admin sets it).", schema: brandingResponse },
    },
    deps: { branding: brandingTokens.service },
    handler: async ({ deps }) => ({
      status: 200,
      body: await deps.branding.get(),
      headers: { 'Cache-Control': 'no-cache' },
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/branding',
    access: 'admin',
    tag: 'Branding',
    operationId: 'updateBranding',
    summary: 'Replace the branding',
    description: "Fields left out take DocQA's defaults. Recorded as config.update.",
    request: { body: brandingSchema },
    responses: { 200: { description: 'The branding now in effect.', schema: brandingResponse } },
    deps: { branding: brandingTokens.service, identity: identityTokens.service },
    handler: async ({ deps, principal, body, req }) => {
      await deps.branding.put(body);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'branding', {
        name: body.name,
        colors: body.colors,
      });
      return { status: 200, body: await deps.branding.get() };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/branding/logo',
    access: 'public',
    tag: 'Branding',
    operationId: 'getBrandingLogo',
    summary: 'The logo image',
    description:
      'PNG, JPEG or WebP as normalised at upload (SVG uploads are served as PNG). ETag and ' +
      'If-None-Match let browsers revalidate cheaply; 404 until a logo is uploaded.',
    responses: {
      200: { description: 'The image.', contentType: 'image/png' },
      304: { description: 'Unchanged since the ETag sent.' },
      404: { description: 'No logo yet.' },
    },
    deps: { branding: brandingTokens.service },
    async handler({ deps, req, res }) {
      const logo = await deps.branding.logo();
      const etag = `"${logo.sha256}"`;
      res.setHeader('ETag', etag);
      res.setHeader('Last-Modified', new Date(logo.updatedAt).toUTCString());
      // Revalidate after a short while: logo_url changes with the logo, but plain /api/branding/logo does not.
      res.setHeader('Cache-Control', 'public, max-age=300, must-revalidate');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (req.headers['if-none-match'] === etag) {
        res.status(304).end();
        return 'handled' as const;
      }
      res.status(200).type(logo.mediaType).send(logo.bytes);
      return 'handled' as const;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/branding/logo',
    access: 'admin',
    tag: 'Branding',
    operationId: 'uploadBrandingLogo',
    summary: 'Upload the logo',
    description:
      'multipart/form-data with a `file` field, or a raw image/* body; at most 2 MB. PNG, JPEG and ' +
      'WebP are re-encoded without metadata and scaled to 512 px at most; SVG must be self-contained ' +
      '(no entities, no outside references) and is rendered to PNG. A refused upload leaves the ' +
      'previous logo in place. Recorded as config.update.',
    responses: {
      201: { description: 'The stored logo.', schema: logoResponse },
      413: { description: 'Larger than 2 MB.' },
      415: { description: 'Not a PNG, JPEG, WebP or safe SVG image.' },
    },
    deps: { branding: brandingTokens.service, identity: identityTokens.service },
    async handler({ deps, principal, req }) {
      const logo = await deps.branding.replaceLogo(await readLogoUpload(req));
      const { logo_url: _, ...recorded } = logo;
      await deps.identity.recordConfigUpdate(principal, req.ip, 'branding.logo', recorded);
      return { status: 201, body: logo };
    },
  }),
];
