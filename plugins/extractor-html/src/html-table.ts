import type { Cheerio, CheerioAPI } from 'cheerio';
import { collapseWhitespace } from './collapse-whitespace.js';

type TableElement = Parameters<CheerioAPI['contains']>[0];

/**
 * The rows of one table (not of tables nested in it) as block texts. With `labelled`, each data row is
 * `Header: value; Header2: value2` (empty cells left out), the headers taken from the first row made of
 * <th> cells, or else from the first row; without it, each row is its cells joined by ` | `.
 */
export function tableRowTexts($: CheerioAPI, table: Cheerio<TableElement>, labelled: boolean): string[] {
  const tableNode = table.get(0);
  const rows = table
    .find('tr')
    .filter((_, row) => $(row).closest('table').get(0) === tableNode)
    .toArray()
    .map((row) =>
      $(row)
        .children('th, td')
        .toArray()
        .map((cell) => ({ header: cell.tagName === 'th', text: collapseWhitespace($(cell).text()) })),
    );
  const texts = (cells: Array<{ text: string }>) => cells.map((cell) => cell.text);
  if (!labelled)
    return rows
      .map((cells) =>
        texts(cells)
          .filter((text) => text !== '')
          .join(' | '),
      )
      .filter((text) => text !== '');
  const headerIndex = Math.max(
    0,
    rows.findIndex((cells) => cells.length > 0 && cells.every((cell) => cell.header)),
  );
  const headers = texts(rows[headerIndex] ?? []);
  return rows
    .filter((_, index) => index !== headerIndex)
    .map((cells) =>
      texts(cells)
        .map((value, column) => ({ header: headers[column] ?? '', value }))
        .filter(({ value }) => value !== '')
        .map(({ header, value }) => (header ? `${header}: ${value}` : value))
        .join('; '),
    )
    .filter((text) => text !== '');
}
