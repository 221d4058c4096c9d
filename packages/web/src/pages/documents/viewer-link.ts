import type { ChatSource } from '../../api/types';

/**
 * The viewer's address for a cited passage: `/documents/{id}/view?start=&end=&page=`. The offsets
 * index the extracted text of GET /api/docs/{id}/content; the page is where a PDF opens. Null when
 * the source has no location (answers saved before sources carried one).
 */
export function viewerPath(source: Pick<ChatSource, 'document_id'> & { location?: ChatSource['location'] }) {
  const location = source.location;
  if (!source.document_id || !location) return null;
  const query = new URLSearchParams({ start: String(location.char_start), end: String(location.char_end) });
  if (location.page_start !== null) query.set('page', String(location.page_start));
  return `/documents/${encodeURIComponent(source.document_id)}/view?${query.toString()}`;
}
