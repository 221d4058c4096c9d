import { DocqaError, type SqlExecutor } from '@docqa/plugin-api';

/**
 * Chunks per page of a document's text. DocQA does not keep the extracted text itself, only its
 * chunks (about 256 tokens each, together every character of the text), so pages are runs of
 * chunks: 20 are about 5,000 tokens, a comfortable piece for an assistant's context.
 */
export const chunksPerPage = 20;

/** Extractors join blocks with a blank line; the chunks leave it out where one chunk ends and the next begins. */
const blockSeparator = '\n\n';

export interface TextPage {
  /** 1-based. */
  page: number;
  pages: number;
  text: string;
  /** Chunks on this page, and on every page. */
  chunks: number;
  total_chunks: number;
}

interface ChunkSpan {
  char_start: number;
  char_end: number;
  text: string;
}

/**
 * The indexed text of a document, `count` chunks from `first` (0-based), joined back together by
 * their offsets in the extracted text: a gap between two chunks was a block separator, and a
 * chunk that starts before the previous one ends (overlapping chunks) gives only its new part.
 * The caller has checked that the document is one the principal may read.
 */
export async function readChunkText(
  db: SqlExecutor,
  documentId: string,
  first: number,
  count: number,
): Promise<{ text: string; chunks: number }> {
  // One chunk before the range tells where the text before it ended.
  const from = Math.max(0, first - 1);
  const { rows } = await db.query<ChunkSpan>(
    'select char_start, char_end, text from chunk where document_id = $1 order by position limit $2 offset $3',
    [documentId, count + (first - from), from],
  );
  const spans = first > from ? rows.slice(1) : rows;
  let end = first > from ? (rows[0]?.char_end ?? null) : null;
  let text = '';
  for (const span of spans) {
    if (end !== null && span.char_start > end) text += blockSeparator;
    text += end !== null && span.char_start < end ? span.text.slice(end - span.char_start) : span.text;
    end = Math.max(end ?? 0, span.char_end);
  }
  return { text, chunks: spans.length };
}

/** Page `page` (1-based) of a document of `totalChunks` chunks; a page past the last is refused. */
export async function readTextPage(
  db: SqlExecutor,
  documentId: string,
  totalChunks: number,
  page: number,
): Promise<TextPage> {
  const pages = Math.max(1, Math.ceil(totalChunks / chunksPerPage));
  if (!Number.isInteger(page) || page < 1 || page > pages) {
    throw new DocqaError('validation_failed', `page must be from 1 to ${pages}: the document has ${pages} page(s).`, {
      errors: [{ field: 'page', message: `must be from 1 to ${pages}` }],
    });
  }
  const { text, chunks } = await readChunkText(db, documentId, (page - 1) * chunksPerPage, chunksPerPage);
  return { page, pages, text, chunks, total_chunks: totalChunks };
}
