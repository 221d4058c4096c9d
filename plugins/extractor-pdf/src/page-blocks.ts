import type { ExtractedBlock } from '@docqa/plugin-api';
import { formatTableRow } from '@docqa/plugin-api';
import type { LineCell, TextLine } from './text-lines.js';

/** A line at least this much larger than the page's median font size is a heading candidate. */
const headingSizeRatio = 1.2;
/** Headings are short; a long line in a large font is body text (a cover page, a quote). */
const headingMaxLength = 200;
/** Lines further apart than this many font sizes start a new paragraph. */
const paragraphGapInFontSizes = 1.6;
/** Rows of a table further apart than this many font sizes end the table. */
const tableRowGapInFontSizes = 2.5;

/** The page's median font size, weighting each line by its length so that a big title weighs little. */
export function medianFontSize(lines: readonly TextLine[]): number {
  const sizes = lines.flatMap((line) => Array<number>(line.text.length).fill(line.fontSize)).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? 0;
}

export function isHeadingLine(line: TextLine, pageMedian: number): boolean {
  return pageMedian > 0 && line.fontSize >= pageMedian * headingSizeRatio && line.text.length <= headingMaxLength;
}

/** Rounds a font size so that 17.98 and 18.01 rank as the same heading size. */
export function headingSizeKey(fontSize: number): number {
  return Math.round(fontSize * 2) / 2;
}

/**
 * Turns one page's lines into blocks: headings (levels from `headingLevel`, by font size), paragraphs
 * of lines close together in the same size, and, when `tables` is on, table rows.
 */
export function pageBlocks(
  lines: readonly TextLine[],
  page: number,
  options: { tables: boolean; headingLevel: (fontSize: number) => number | undefined },
): ExtractedBlock[] {
  const median = medianFontSize(lines);
  const blocks: ExtractedBlock[] = [];
  let paragraph: { text: string; last: TextLine; heading: number | undefined } | undefined;
  const flush = () => {
    if (paragraph) {
      const { text, heading } = paragraph;
      blocks.push(
        heading === undefined ? { kind: 'paragraph', text, page } : { kind: 'heading', text, level: heading, page },
      );
    }
    paragraph = undefined;
  };

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const table = options.tables ? tableAt(lines, index) : 0;
    if (table > 0) {
      flush();
      blocks.push(...tableRows(lines.slice(index, index + table), page));
      index += table - 1;
      continue;
    }
    const heading = isHeadingLine(line, median) ? options.headingLevel(line.fontSize) : undefined;
    if (paragraph && paragraph.heading === heading && continues(paragraph.last, line)) {
      paragraph.text += ` ${line.text}`;
      paragraph.last = line;
    } else {
      flush();
      paragraph = { text: line.text, last: line, heading };
    }
  }
  flush();
  return blocks;
}

/** Whether a line continues the paragraph that ended with `previous`: the same size, just below it. */
function continues(previous: TextLine, line: TextLine): boolean {
  const gap = previous.y - line.y;
  return (
    headingSizeKey(previous.fontSize) === headingSizeKey(line.fontSize) &&
    gap > 0 &&
    gap <= paragraphGapInFontSizes * line.fontSize
  );
}

/**
 * The number of lines from `start` that form a table: at least two consecutive lines with the same
 * number (two or more) of cells, each cell lying under the matching cell of the first line. A modest
 * heuristic: it finds simple grids and column layouts, not spanning or wrapped cells.
 */
function tableAt(lines: readonly TextLine[], start: number): number {
  const header = lines[start]!;
  if (header.cells.length < 2) return 0;
  let end = start + 1;
  while (end < lines.length && alignedRow(header, lines[end - 1]!, lines[end]!)) end += 1;
  return end - start >= 2 ? end - start : 0;
}

function alignedRow(header: TextLine, previous: TextLine, line: TextLine): boolean {
  const gap = previous.y - line.y;
  if (line.cells.length !== header.cells.length || gap <= 0 || gap > tableRowGapInFontSizes * line.fontSize)
    return false;
  return line.cells.every((cell, column) => underneath(cell, header.cells[column]!, line.fontSize));
}

/** A cell is under a header cell when their horizontal spans overlap, give or take a font size. */
function underneath(cell: LineCell, header: LineCell, slack: number): boolean {
  return cell.x <= header.right + slack && cell.right >= header.x - slack;
}

function tableRows(lines: readonly TextLine[], page: number): ExtractedBlock[] {
  const [header, ...rows] = lines;
  const headers = header!.cells.map((cell) => cell.text);
  return rows.map((row) => ({
    kind: 'table_row',
    text: formatTableRow(
      headers,
      row.cells.map((cell) => cell.text),
    ),
    page,
  }));
}
