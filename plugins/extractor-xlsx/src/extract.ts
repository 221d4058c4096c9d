import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { DocqaError } from '@docqa/plugin-api';
import type { ExtractedBlock, ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { cellText } from './cell-text.js';
import { formatTableRow, joinTableCells as joinCells } from '@docqa/plugin-api';

/**
 * Extracts an .xlsx workbook with exceljs's streaming reader, one row at a time, so a workbook of a
 * million rows stays in bounded memory (only the shared strings are cached). Each worksheet becomes a
 * heading (its name) and one block per non-empty row, "Header: value; …", the first non-empty row
 * giving the headers. Runs in an extraction worker thread: it imports nothing but the plugin API.
 */
export async function extract(input: ExtractorInput, signal?: AbortSignal): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input.path, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    // Styles are needed after all: a date is a number with a date format, and only the cached
    // number formats tell the reader to turn it into a Date. styles.xml is small.
    styles: 'cache',
  });
  const blocks: ExtractedBlock[] = [];
  let sheets = 0;
  try {
    for await (const worksheet of reader) {
      sheets += 1;
      blocks.push({ kind: 'heading', text: sheetName(worksheet, sheets), level: 1 });
      await appendRows(worksheet, blocks, input.options.tables, signal);
    }
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    throw new DocqaError('unsupported_media_type', `${input.filename} is not a readable Excel workbook: ${reason(error)}`, {
      cause: error,
    });
  } finally {
    // Leaving the loop early (abort, corrupt entry) must not leave the file open.
    (reader as unknown as { stream?: Readable }).stream?.destroy();
  }
  return { blocks, metadata: { sheets: String(sheets) } };
}

async function appendRows(
  worksheet: AsyncIterable<ExcelJS.Row>,
  blocks: ExtractedBlock[],
  tables: boolean,
  signal: AbortSignal | undefined,
): Promise<void> {
  let headers: string[] | undefined;
  let headerRowOnly = true;
  for await (const row of worksheet) {
    signal?.throwIfAborted();
    const cells = rowCells(row);
    if (cells.every((cell) => cell === '')) continue;
    if (!headers) {
      headers = cells;
      continue;
    }
    headerRowOnly = false;
    const text = formatTableRow(headers, cells);
    // With tables off the row keeps its "Header: value" text, as a plain paragraph.
    blocks.push({ kind: tables ? 'table_row' : 'paragraph', text });
  }
  // A sheet that is a single row (a list of names, a title) still has text worth finding.
  if (headers && headerRowOnly) blocks.push({ kind: 'paragraph', text: joinCells(headers) });
}

/** The row's cells from column A on; exceljs's row.values is 1-based and sparse. */
function rowCells(row: ExcelJS.Row): string[] {
  const values = row.values as unknown[];
  const cells: string[] = [];
  for (let column = 1; column < values.length; column += 1) cells.push(cellText(values[column]));
  return cells;
}

function sheetName(worksheet: unknown, position: number): string {
  const name = (worksheet as { name?: unknown }).name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : `Sheet ${position}`;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
