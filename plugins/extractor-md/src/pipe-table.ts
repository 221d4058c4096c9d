import { plainInlineText } from './inline-markup.js';

/** The cells of a pipe-table line: outer pipes optional, `\|` is a pipe inside a cell. */
export function tableCells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  return row.split(/(?<!\\)\|/).map((cell) => plainInlineText(cell.trim()));
}

/** The line under a table's header: `| --- | :-: |`, a pipe and at least one `-` per cell. */
export function isDelimiterRow(line: string): boolean {
  return line.includes('|') && /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line);
}

/** `Header: value; Header2: value2`, empty cells left out; cells beyond the header are ignored, as GFM does. */
export function labelledRow(headers: readonly string[], cells: readonly string[]): string {
  return headers
    .map((header, index) => ({ header, value: cells[index] ?? '' }))
    .filter(({ value }) => value !== '')
    .map(({ header, value }) => (header ? `${header}: ${value}` : value))
    .join('; ');
}
