import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';

/** Where a passage is in its document (search items, chat sources, OpenAI-compatible and MCP citations). */
export const locationSchema = z
  .object({
    page_start: z
      .number()
      .int()
      .nullable()
      .describe('First 1-based page (PDF; plain text split by form feeds); null for formats without pages.'),
    page_end: z.number().int().nullable().describe('Last 1-based page, as page_start.'),
    heading_path: z
      .array(z.string())
      .describe('Headings the passage sits under, outermost first (Markdown, DOCX, HTML; the sheet name for xlsx).'),
    sheet: z.string().nullable().describe('The worksheet of an xlsx workbook; null for other formats.'),
    row_start: z
      .number()
      .int()
      .nullable()
      .describe(
        'First 1-based sheet row (xlsx) or record (CSV: non-empty records, the header is 1); null for other formats.',
      ),
    row_end: z.number().int().nullable().describe('Last row, as row_start.'),
    char_start: z
      .number()
      .int()
      .describe(
        'Offset of the passage in the extracted text of GET /api/docs/{id}/content, in UTF-16 code units: ' +
          'text.slice(char_start, char_end) is the passage.',
      ),
    char_end: z.number().int().describe('End (exclusive) of the passage in the extracted text.'),
  })
  .describe('Where the passage comes from in its document.');
nameSchema(locationSchema, 'SourceLocation');
