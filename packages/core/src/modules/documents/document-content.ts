import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { DocqaError, type Db } from '@docqa/plugin-api';
import { sheetOf } from '../search/contract.js';
import type { DocumentRow } from './document-repository.js';

/** A run of the extracted text under one heading path, as indexing laid it out. */
export interface ContentSection {
  heading_path: string[];
  char_start: number;
  char_end: number;
  page_start: number | null;
  page_end: number | null;
  /** The worksheet (xlsx); null for other formats. */
  sheet: string | null;
}

/** Where one page of a paged format (PDF, plain text) is in the extracted text; pages without text are left out. */
export interface ContentPage {
  page: number;
  char_start: number;
  char_end: number;
}

/** The section map and pages of a document's text as indexing stores them (document_text.layout). */
export interface DocumentLayout {
  sections: Array<Omit<ContentSection, 'sheet'>>;
  pages: ContentPage[];
}

/** A slice of a document's extracted text with the map of the whole of it (GET /api/docs/{id}/content). */
export interface DocumentContent {
  document_id: string;
  /** The document's title, or its file name when it has none (as search items and sources name it). */
  title: string;
  media_type: string;
  offset: number;
  limit: number;
  /** Length of the whole text in UTF-16 code units, the unit of every offset here and in locations. */
  total_chars: number;
  text: string;
  sections: ContentSection[];
  pages: ContentPage[];
}

/** The original bytes of a document (GET /api/docs/{id}/file). */
export interface DocumentFile {
  filename: string;
  media_type: string;
  size_bytes: number;
  /** SHA-256 of the bytes: a strong ETag. */
  content_hash: string;
  open(): Readable;
}

export const defaultContentLimit = 20_000;
export const maxContentLimit = 100_000;

/**
 * The extracted text kept at indexing (document_text), sliced. The whole text is read and sliced
 * in JavaScript rather than with SQL substr, because substr counts code points and every offset
 * DocQA hands out counts UTF-16 code units (chunk offsets are JavaScript string positions).
 */
export async function readContent(
  db: Db,
  document: DocumentRow,
  offset: number,
  limit: number,
): Promise<DocumentContent> {
  if (document.status !== 'indexed') throw reindexRequired(document, 'not_indexed', 'it is not indexed yet');
  const { rows } = await db.query<{ text: string; layout: DocumentLayout | null }>(
    'select text, layout from document_text where document_id = $1',
    [document.id],
  );
  const stored = rows[0];
  if (!stored) throw reindexRequired(document, 'reindex_required', 'its text was not kept when it was indexed');
  if (!stored.layout) throw reindexRequired(document, 'reindex_required', 'it was indexed before sections were kept');
  const total = stored.text.length;
  if (offset > total) {
    throw new DocqaError('validation_failed', `offset must be from 0 to ${total}: the text has ${total} characters.`, {
      errors: [{ field: 'offset', message: `must be from 0 to ${total}` }],
    });
  }
  return {
    document_id: document.id,
    title: document.title ?? document.filename,
    media_type: document.media_type,
    offset,
    limit,
    total_chars: total,
    text: stored.text.slice(offset, offset + limit),
    sections: stored.layout.sections.map((section) => ({
      ...section,
      sheet: sheetOf(section.heading_path, document.media_type),
    })),
    pages: stored.layout.pages,
  };
}

/**
 * A document's stored bytes. Every kind of document (uploads, connector and integration files) is
 * kept in the content-addressed blob store when it is accepted, so the bytes are read from there.
 */
export async function openFile(blobPath: string, document: DocumentRow): Promise<DocumentFile> {
  const stat = await fs.promises.stat(blobPath).catch(() => null);
  if (!stat?.isFile()) {
    throw new DocqaError(
      'conflict',
      `The file of ${document.filename} is no longer stored; sync its source or upload it again.`,
      { extra: { reason: 'file_missing' } },
    );
  }
  return {
    filename: document.filename,
    media_type: document.media_type,
    size_bytes: stat.size,
    content_hash: document.content_hash,
    open: () => fs.createReadStream(blobPath),
  };
}

function reindexRequired(document: DocumentRow, reason: string, why: string): DocqaError {
  return new DocqaError('conflict', `The text of ${document.filename} cannot be shown: ${why}. Re-index it.`, {
    extra: { reason },
  });
}
