import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { defineRoute } from '../http/route.js';
import { defaultContentLimit, maxContentLimit, documentsTokens } from '@docqa/core/documents';
import { idParams } from './identity-schemas.js';

// A document's extracted text with its section map, and its original file: what a viewer opens a
// citation's location in. Both check the caller may read the document as GET /api/docs/{id} does.

const contentQuery = z.object({
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('First character (UTF-16 code unit) of the text to return; at most total_chars.'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(maxContentLimit)
    .default(defaultContentLimit)
    .describe(`Characters to return, at most ${maxContentLimit}.`),
});

const sectionSchema = z.object({
  heading_path: z.array(z.string()),
  char_start: z.number().int(),
  char_end: z.number().int(),
  page_start: z.number().int().nullable(),
  page_end: z.number().int().nullable(),
  sheet: z.string().nullable().describe('The worksheet (xlsx); null for other formats.'),
});

const contentSchema = z.object({
  document_id: z.uuid(),
  title: z.string().describe('The document title, or its file name when it has none.'),
  media_type: z.string(),
  offset: z.number().int(),
  limit: z.number().int(),
  total_chars: z.number().int().describe('Length of the whole extracted text, in UTF-16 code units.'),
  text: z.string().describe('The text from offset, at most limit characters.'),
  sections: z
    .array(sectionSchema)
    .describe('Every section of the whole text, in order: a run of text under one heading path.'),
  pages: z
    .array(z.object({ page: z.number().int(), char_start: z.number().int(), char_end: z.number().int() }))
    .describe(
      'Where each page with text is in the whole text (PDF, plain text with form feeds); ' +
        'empty for formats without pages.',
    ),
});
nameSchema(contentSchema, 'DocumentContent');

const fileQuery = z.object({
  disposition: z
    .enum(['attachment', 'inline'])
    .default('attachment')
    .describe('`inline` lets a browser show a PDF in place; every other type is always sent as an attachment.'),
});

const conflict = {
  description:
    'The text was not kept with its sections (`reason`: `reindex_required`, or `not_indexed` while the ' +
    'document is not indexed): re-index the document.',
};

export const documentContentRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/docs/{id}/content',
    access: 'required',
    tag: 'Documents',
    operationId: 'getDocumentContent',
    summary: "A page of a document's extracted text, with its section map and pages",
    description: [
      "The text indexing extracted, `limit` characters from `offset`; a source's `location.char_start`/`char_end`",
      'index this text. `sections` and `pages` cover the whole document whatever the page asked.',
      "A document outside the caller's groups answers 404, as one that does not exist.",
    ].join(' '),
    request: { params: idParams, query: contentQuery },
    responses: {
      200: { description: 'The text and its map.', schema: contentSchema },
      404: { description: 'No such document the caller may see.' },
      409: conflict,
      422: { description: `offset past the end of the text, or limit outside 1 to ${maxContentLimit}.` },
    },
    deps: { documents: documentsTokens.service },
    handler: async ({ deps, principal, params, query }) => ({
      status: 200,
      body: await deps.documents.content(principal!, params.id, query.offset, query.limit),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/docs/{id}/file',
    access: 'required',
    tag: 'Documents',
    operationId: 'getDocumentFile',
    summary: 'The original file of a document',
    description: [
      "The bytes as uploaded or synced, with the document's media type, as an attachment (or inline for a PDF",
      'when asked). `Content-Security-Policy: sandbox` and `nosniff` keep stored HTML or SVG from running on',
      'this origin. ETag is the SHA-256 of the bytes; If-None-Match answers 304.',
      "A document outside the caller's groups answers 404, as one that does not exist.",
    ].join(' '),
    request: { params: idParams, query: fileQuery },
    responses: {
      200: { description: 'The file.', contentType: 'application/octet-stream' },
      304: { description: 'Unchanged since the ETag sent.' },
      404: { description: 'No such document the caller may see.' },
      409: { description: 'The stored file is gone (`reason`: `file_missing`): sync the source or upload it again.' },
    },
    deps: { documents: documentsTokens.service },
    async handler({ deps, principal, params, query, req, res }) {
      const file = await deps.documents.file(principal!, params.id);
      const etag = `"${file.content_hash}"`;
      res.setHeader('ETag', etag);
      // Behind authentication: a browser may keep it, but must ask again (a cheap 304) before reuse.
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', 'sandbox');
      if (req.headers['if-none-match'] === etag) {
        res.status(304).end();
        return 'handled' as const;
      }
      const inline = query.disposition === 'inline' && file.media_type === 'application/pdf';
      res.status(200);
      res.setHeader('Content-Type', file.media_type);
      res.setHeader('Content-Length', String(file.size_bytes));
      res.setHeader('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', file.filename));
      // A client that leaves mid-file ends the pipeline with an error; the stream is closed either way.
      await pipeline(file.open(), res).catch(() => undefined);
      return 'handled' as const;
    },
  }),
];

/** RFC 6266 with RFC 8187's UTF-8 form: any file name, quotes and non-ASCII included, survives. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename*=UTF-8''${encoded}`;
}
