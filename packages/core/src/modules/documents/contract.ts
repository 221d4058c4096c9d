import { createToken } from '@docqa/plugin-api';
import type { DocumentService } from './document-service.js';
import type { IndexService } from './index-service.js';

// What other code may know of the documents module: its tokens, the services' types, the ingest and
// rebuild queues, and the helpers the API and the MCP tools read documents with.

export type { DocumentService, DocumentListQuery, UploadOptions } from './document-service.js';
export type { IndexService, IndexStats } from './index-service.js';
export type { DocumentRow, DocumentStatus } from './document-repository.js';
export type { UploadBody } from './multipart-parts.js';
export {
  defaultContentLimit,
  maxContentLimit,
  type ContentPage,
  type ContentSection,
  type DocumentContent,
  type DocumentFile,
  type DocumentLayout,
} from './document-content.js';
export { isRelativeSourcePath } from './connector-targets.js';
export { readChunkText, readTextPage, chunksPerPage, type TextPage } from './document-text.js';
// The index writer's steps, which bench:ingest times one by one.
export { chunkId, chunksPerStatement, writeChunkedDocument, type ChunkedDocument } from './index-writer.js';
export { ingestQueue, ingestQueueOptions, rebuildQueue, rebuildQueueOptions, type IngestJobData } from './queues.js';

export const documentsTokens = {
  /** Uploads, lists, deletes and moves documents, and queues their indexing. */
  service: createToken<DocumentService>('documents.service'),
  /** What is in the index, and its rebuild. */
  index: createToken<IndexService>('documents.index'),
};
