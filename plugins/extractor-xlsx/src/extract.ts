import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { checkZipLimits, DocqaError, TextBudget } from '@docqa/plugin-api';
import type { ExtractedBlock, ExtractedDocument, ExtractorInput } from '@docqa/plugin-api';
import { cellText } from './cell-text.js';
import { isInflatedPart, xlsxExtractorOptionsSchema } from './options.js';
import { formatTableRow, joinTableCells as joinCells } from '@docqa/plugin-api';

/**
 * Extracts an .xlsx workbook with exceljs's streaming reader, one row at a time, so a workbook of a
 * million rows stays in bounded memory (only the shared strings are cached). Each worksheet becomes a
 * heading (its name) and one block per non-empty row, "Header: value; …", the first non-empty row
 * giving the headers. Runs in an extraction worker thread: it imports nothing but the plugin API.
 * `options` are the plugin's (its limits); absent, the defaults apply.
 */
export async function extract(
  input: ExtractorInput,
  signal?: AbortSignal,
  options?: unknown,
): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  const limits = xlsxExtractorOptionsSchema.parse(options ?? {});
  // Before exceljs, which caches shared strings in memory and spools sheets to disk: a zip bomb stops here.
  try {
    const check = { filename: input.filename, plugin: 'extractor-xlsx', limits, isInflated: isInflatedPart };
    await checkZipLimits(input.path, check);
  } catch (error) {
    throw DocqaError.is(error, 'unsupported_media_type') ? unreadable(input.filename, error.cause) : error;
  }
  signal?.throwIfAborted();
  const budget = new TextBudget(input.filename, 'extractor-xlsx', limits.maxTextCharacters);
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
      const heading = sheetName(worksheet, sheets);
      budget.spend(heading);
      blocks.push({ kind: 'heading', text: heading, level: 1 });
      await appendRows(worksheet, blocks, { tables: input.options.tables, budget }, signal);
    }
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    // The text limit stops the read on purpose; it is not a sign of a broken workbook.
    if (DocqaError.is(error, 'file_too_large')) throw error;
    throw unreadable(input.filename, error);
  } finally {
    // Leaving the loop early (abort, corrupt entry) must not leave the file open.
    (reader as unknown as { stream?: Readable }).stream?.destroy();
  }
  return { blocks, metadata: { sheets: String(sheets) } };
}

async function appendRows(
  worksheet: AsyncIterable<ExcelJS.Row>,
  blocks: ExtractedBlock[],
  { tables, budget }: { tables: boolean; budget: TextBudget },
  signal: AbortSignal | undefined,
): Promise<void> {
  let headers: string[] | undefined;
  let headerRow = 0;
  let headerRowOnly = true;
  for await (const row of worksheet) {
    signal?.throwIfAborted();
    const cells = rowCells(row);
    if (cells.every((cell) => cell === '')) continue;
    // Counted as read, headers too: a workbook of endless rows stops at the limit, not at its end.
    for (const cell of cells) budget.spend(cell);
    if (!headers) {
      headers = cells;
      headerRow = row.number;
      continue;
    }
    headerRowOnly = false;
    const text = formatTableRow(headers, cells);
    // With tables off the row keeps its "Header: value" text, as a plain paragraph.
    // row.number is the sheet's own 1-based row, empty rows counted: the row Excel shows.
    blocks.push({ kind: tables ? 'table_row' : 'paragraph', text, row: row.number });
  }
  // A sheet that is a single row (a list of names, a title) still has text worth finding.
  if (headers && headerRowOnly) blocks.push({ kind: 'paragraph', text: joinCells(headers), row: headerRow });
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

function unreadable(filename: string, cause: unknown): DocqaError {
  const message = `${filename} is not a readable Excel workbook: ${reason(cause)}`;
  return new DocqaError('unsupported_media_type', message, { cause });
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
