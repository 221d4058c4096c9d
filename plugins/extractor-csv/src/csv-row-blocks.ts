import { formatTableRow, type ExtractedBlock } from '@docqa/plugin-api';

/**
 * Turns parsed rows into table_row blocks: the first row is the header, and each later row becomes
 * `Header: value; Header2: value2` with empty cells left out. A row whose cell count differs from the
 * header's, or that the parser reported a problem in, still gives what it has and counts as a warning.
 */
export class CsvRowBlocks {
  readonly blocks: ExtractedBlock[] = [];
  warnings = 0;
  private headers: string[] | null = null;

  /**
   * `row` is the 1-based number of the record among the file's non-empty records, the header being
   * 1: the row a spreadsheet shows for a file without blank lines or line breaks in quoted cells.
   */
  addRow(cells: readonly string[], hadParseError: boolean, row?: number): void {
    if (this.headers === null) {
      // A header cell left empty still needs a label, or its values would lose their meaning.
      this.headers = cells.map((cell, index) => cell.trim() || `Column ${index + 1}`);
      if (hadParseError) this.warnings += 1;
      return;
    }
    if (hadParseError || cells.length !== this.headers.length) this.warnings += 1;
    const text = formatTableRow(
      this.headers,
      cells.map((cell) => cell.trim()),
    );
    if (text) this.blocks.push({ kind: 'table_row', text, ...(row === undefined ? {} : { row }) });
  }
}
