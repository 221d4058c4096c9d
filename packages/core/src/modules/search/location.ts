/**
 * Where a passage comes from, as search items, chat sources and MCP results carry it: enough for a
 * viewer to open the document at the passage. `char_start`/`char_end` index the document's
 * extracted text exactly as GET /api/docs/{id}/content returns it (the chunk is that slice).
 */
export interface SourceLocation {
  /** 1-based pages of paged formats (PDF; plain text, whose form feeds end pages); null otherwise. */
  page_start: number | null;
  page_end: number | null;
  /** The headings the passage sits under, outermost first (a workbook's sheet name for xlsx). */
  heading_path: string[];
  /** The worksheet of an xlsx workbook; null for every other format. */
  sheet: string | null;
  /** 1-based sheet rows (xlsx) or records (CSV: non-empty records, the header being 1); null otherwise. */
  row_start: number | null;
  row_end: number | null;
  char_start: number;
  char_end: number;
}

/** The chunk columns a location is made of. */
export interface LocatedChunk {
  heading_path: string[];
  page_start: number | null;
  page_end: number | null;
  row_start: number | null;
  row_end: number | null;
  char_start: number;
  char_end: number;
}

/** extractor-xlsx's media type: its top-level headings are worksheet names. */
export const xlsxMediaType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The sheet a heading path is in: the xlsx extractor makes each worksheet a level-1 heading, so the
 * first heading is the sheet. Other formats have no sheets (a CSV is one table without a name).
 */
export function sheetOf(headingPath: readonly string[], mediaType: string): string | null {
  return mediaType === xlsxMediaType ? (headingPath[0] ?? null) : null;
}

export function sourceLocation(chunk: LocatedChunk, mediaType: string): SourceLocation {
  return {
    page_start: chunk.page_start,
    page_end: chunk.page_end,
    heading_path: chunk.heading_path,
    sheet: sheetOf(chunk.heading_path, mediaType),
    row_start: chunk.row_start,
    row_end: chunk.row_end,
    char_start: chunk.char_start,
    char_end: chunk.char_end,
  };
}
