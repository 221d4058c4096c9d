import { z } from 'zod';
import { DocqaError } from '@docqa/plugin-api';
import { defineRoute } from '../http/route.js';
import { idParams, pageQuery } from './identity-schemas.js';

const documentSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  path: z.string(),
  title: z.string().nullable(),
  media_type: z.string(),
  size_bytes: z.number().int(),
  content_hash: z.string().describe('SHA-256 of the bytes.'),
  status: z.enum(['pending', 'indexing', 'indexed', 'failed']),
  error: z.string().nullable(),
  job_id: z.uuid().nullable(),
  source_type: z.enum(['upload', 'connector', 'integration']),
  source_id: z.string().nullable(),
  chunk_count: z.number().int(),
  metadata: z.record(z.string(), z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  indexed_at: z.string().nullable(),
});

const connectorQuery = z.object({ connector_id: z.uuid().optional().describe('The connector whose storage receives the document.') });
// A path inside a source: relative, normalised, no way out of it.
const targetPath = z
  .string()
  .min(1)
  .max(1024)
  .refine((value) => !value.startsWith('/') && !value.split('/').some((part) => part === '..' || part === '.' || part === ''), 'must be a relative path without ".", ".." or empty segments');

export const documentRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/docs/upload',
    access: 'editor',
    tag: 'Documents',
    operationId: 'uploadDocuments',
    summary: 'Upload documents for indexing',
    description:
      'multipart/form-data with one or more parts named `file` (at most 20), streamed to storage. Type, plan gate and plan limits (documents, file size, storage) are checked before and while bytes arrive; a refused upload stores nothing. The same bytes uploaded again answer the existing document with `duplicate: true`.',
    request: { query: connectorQuery },
    responses: { 202: { description: 'Accepted; indexing runs as jobs.', schema: z.object({ documents: z.array(documentSchema.extend({ duplicate: z.boolean() })) }) } },
    handler: async ({ services, principal, query, req }) => ({ status: 202, body: { documents: await services.documents.upload(req, principal!, query.connector_id) } }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/docs',
    access: 'required',
    tag: 'Documents',
    operationId: 'listDocuments',
    summary: 'List documents the caller may see',
    request: { query: pageQuery.extend({ status: z.enum(['pending', 'indexing', 'indexed', 'failed']).optional(), q: z.string().max(200).optional().describe('Part of the file name, path or title.') }) },
    responses: { 200: { description: 'A page of documents, newest first.', schema: z.object({ items: z.array(documentSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }) } },
    handler: async ({ services, principal, query }) => ({ status: 200, body: await services.documents.list(principal!, query) }),
  }),
  // Before /api/docs/{id}: "bulk" is not an id.
  defineRoute({
    method: 'delete',
    path: '/api/docs/bulk',
    access: 'editor',
    tag: 'Documents',
    operationId: 'deleteDocuments',
    summary: 'Delete several documents',
    request: { body: z.strictObject({ ids: z.array(z.uuid()).min(1).max(1000) }) },
    responses: { 200: { description: 'What was deleted and what was not found.', schema: z.object({ deleted: z.array(z.uuid()), not_found: z.array(z.uuid()) }) } },
    handler: async ({ services, body }) => ({ status: 200, body: await services.documents.delete([...new Set(body.ids)]) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/docs/{id}',
    access: 'editor',
    tag: 'Documents',
    operationId: 'deleteDocument',
    summary: 'Delete a document, its chunks and vectors',
    request: { params: idParams, query: connectorQuery },
    responses: { 204: { description: 'Deleted.' } },
    async handler({ services, params }) {
      const { deleted } = await services.documents.delete([params.id]);
      if (deleted.length === 0) throw new DocqaError('not_found', `Document ${params.id} was not found.`);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/docs/move',
    access: 'editor',
    tag: 'Documents',
    operationId: 'moveDocument',
    summary: 'Move a document to another path of its source',
    request: { query: connectorQuery, body: z.strictObject({ document_id: z.uuid(), target_path: targetPath, connector_id: z.uuid().optional() }) },
    responses: { 200: { description: 'The moved document.', schema: documentSchema } },
    handler: async ({ services, body, query }) => ({ status: 200, body: await services.documents.move(body.document_id, body.target_path, body.connector_id ?? query.connector_id) }),
  }),
];
