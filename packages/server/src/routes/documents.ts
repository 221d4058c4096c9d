import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { defineRoute } from '../http/route.js';
import { isRelativeSourcePath, documentsTokens } from '@docqa/core/documents';
import { idParams, pageQuery } from './identity-schemas.js';
import { documentContentRoutes } from './document-content.js';

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
nameSchema(documentSchema, 'Document');

// A path inside a source: relative, normalised, no way out of it (the connector plugin checks again on disk).
const sourcePath = z
  .string()
  .min(1)
  .max(1024)
  .refine(isRelativeSourcePath, 'must be a relative path without ".", "..", "\\" or empty segments');
const targetPath = sourcePath.describe(
  'Connector-scoped when the document belongs to a connector or `connector_id` is given: relative to the ' +
    "connector's directory, `/`-separated (for example `reports/2026/q1.pdf`); the file is moved there and missing " +
    "directories are created. For uploads without `connector_id`: the document's new path.",
);
const uploadQuery = z.object({
  connector_id: z
    .uuid()
    .optional()
    .describe(
      "Store the files in this connector's storage (a filesystem connector's directory) and index them " +
        'as its documents. Also accepted as a form field sent before the file parts.',
    ),
  directory: sourcePath
    .optional()
    .describe(
      "With connector_id: the directory, relative to the connector's root, that receives the files (created when " +
        'missing); default the root. Also accepted as a form field sent before the file parts.',
    ),
});
const deleteQuery = z.object({
  connector_id: z
    .uuid()
    .optional()
    .describe(
      "The document's connector: its file is deleted from the connector's storage too. " +
        "Without it only the index forgets the document (a connector's file stays, and comes " +
        'back when it changes or the connector syncs from scratch).',
    ),
});
const moveQuery = z.object({
  connector_id: z.uuid().optional().describe('As `connector_id` in the body (which wins when both are sent).'),
});

const listQuery = pageQuery
  .extend({
    status: z.enum(['pending', 'indexing', 'indexed', 'failed']).optional(),
    q: z.string().max(200).optional().describe('Part of the file name, path or title.'),
    source_type: z
      .enum(['upload', 'connector', 'integration'])
      .optional()
      .describe('Only uploads, or only documents of connectors or of integrations.'),
    source_id: z.uuid().optional().describe('Only the documents of this connector or integration.'),
    connector_id: z
      .uuid()
      .optional()
      .describe('Only the documents of this connector (source_type connector and source_id).'),
    integration_id: z.uuid().optional().describe('Only the documents of this integration.'),
  })
  .refine((query) => [query.source_id, query.connector_id, query.integration_id].filter(Boolean).length <= 1, {
    message: 'give at most one of source_id, connector_id and integration_id',
    path: ['source_id'],
  });

export const documentRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/docs/upload',
    access: 'editor',
    tag: 'Documents',
    operationId: 'uploadDocuments',
    summary: 'Upload documents for indexing',
    description:
      'multipart/form-data with one or more parts named `file` (at most 20), streamed to storage. Type, plan gate ' +
      'and plan limits (documents, file size, storage) are checked before and while bytes arrive; a refused ' +
      'upload stores nothing. The same bytes uploaded again answer the existing document with `duplicate: ' +
      'true`.\n\n' +
      "With `connector_id` (query or form field), each file is written into that connector's storage at " +
      "`<directory>/<file name>` and becomes the connector's document, as a scan would record it, so the next " +
      'scan changes nothing; `duplicate` is then false (a connector may hold the same bytes at two paths). An ' +
      'existing file or document at that path answers 409, a path the connector refuses (through a link, out of ' +
      'its directory, excluded by its globs) 422, an integration or a connector that cannot store files 422, an ' +
      'unknown connector 404; nothing is written.',
    request: { query: uploadQuery },
    responses: {
      202: {
        description: 'Accepted; indexing runs as jobs.',
        schema: z.object({ documents: z.array(documentSchema.extend({ duplicate: z.boolean() })) }),
      },
    },
    deps: { documents: documentsTokens.service },
    handler: async ({ deps, principal, query, req }) => ({
      status: 202,
      body: {
        documents: await deps.documents.upload({ stream: req, contentType: req.headers['content-type'] }, principal!, {
          connectorId: query.connector_id,
          directory: query.directory,
        }),
      },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/docs',
    access: 'required',
    tag: 'Documents',
    operationId: 'listDocuments',
    summary: 'List documents the caller may see',
    request: { query: listQuery },
    responses: {
      200: {
        description: 'A page of documents, newest first.',
        schema: z.object({
          items: z.array(documentSchema),
          total: z.number().int(),
          limit: z.number().int(),
          offset: z.number().int(),
        }),
      },
    },
    deps: { documents: documentsTokens.service },
    handler: async ({ deps, principal, query }) => {
      const sourceId = query.source_id ?? query.connector_id ?? query.integration_id;
      const sourceType =
        query.source_type ?? (query.connector_id ? 'connector' : query.integration_id ? 'integration' : undefined);
      const listed = {
        limit: query.limit,
        offset: query.offset,
        ...(query.status ? { status: query.status } : {}),
        ...(query.q ? { q: query.q } : {}),
        ...(sourceType ? { sourceType } : {}),
        ...(sourceId ? { sourceId } : {}),
      };
      return { status: 200, body: await deps.documents.list(principal!, listed) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/docs/{id}',
    access: 'required',
    tag: 'Documents',
    operationId: 'getDocument',
    summary: 'One document: its status, error, chunks, metadata and where it comes from',
    description: "A document outside the caller's groups answers 404, as one that does not exist.",
    request: { params: idParams },
    responses: {
      200: { description: 'The document.', schema: documentSchema },
      404: { description: 'No such document the caller may see.' },
    },
    deps: { documents: documentsTokens.service },
    handler: async ({ deps, principal, params }) => ({
      status: 200,
      body: await deps.documents.get(principal!, params.id),
    }),
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
    responses: {
      200: {
        description: 'What was deleted and what was not found.',
        schema: z.object({ deleted: z.array(z.uuid()), not_found: z.array(z.uuid()) }),
      },
    },
    deps: { documents: documentsTokens.service },
    handler: async ({ deps, body }) => ({
      status: 200,
      body: await deps.documents.delete([...new Set(body.ids)]),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/docs/{id}',
    access: 'editor',
    tag: 'Documents',
    operationId: 'deleteDocument',
    summary: 'Delete a document, its chunks and vectors',
    description:
      "With `connector_id` (the document's connector, which must be able to store files), " +
      "the document's file is deleted from the connector's storage as well. A document of " +
      'another source answers 422, an unknown connector 404.',
    request: { params: idParams, query: deleteQuery },
    responses: { 204: { description: 'Deleted.' } },
    deps: { documents: documentsTokens.service },
    async handler({ deps, params, query }) {
      await deps.documents.deleteOne(params.id, query.connector_id);
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
    description:
      "A connector's document moves within the connector's storage: its file is renamed to `target_path` (relative " +
      "to the connector's directory) and the document keeps its id, chunks and vectors, so nothing is indexed " +
      'again and the next scan changes nothing. An upload moved with `connector_id` has its bytes written into ' +
      "that connector at `target_path` and becomes the connector's document, keeping its chunks. An existing file " +
      'or document at the target answers 409; a path the connector refuses (through a link, out of its directory, ' +
      'excluded by its globs), a connector that cannot store files, or a document of another connector or of an ' +
      'integration 422. Other documents only change their path.',
    request: {
      query: moveQuery,
      body: z.strictObject({
        document_id: z.uuid(),
        target_path: targetPath,
        connector_id: z
          .uuid()
          .optional()
          .describe('The connector whose storage the document moves in (or, for an upload, into).'),
      }),
    },
    responses: { 200: { description: 'The moved document.', schema: documentSchema } },
    deps: { documents: documentsTokens.service },
    handler: async ({ deps, body, query }) => ({
      status: 200,
      body: await deps.documents.move(
        body.document_id,
        body.target_path,
        body.connector_id ?? query.connector_id,
        body.connector_id ? 'body.connector_id' : 'query.connector_id',
      ),
    }),
  }),
  ...documentContentRoutes,
];
