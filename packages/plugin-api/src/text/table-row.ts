/**
 * One table row as a sentence a retriever can match on its own: "Header: value; Header: value".
 * Each row carries its headers because a chunk may hold a row without the table's first row.
 * Empty cells are left out; a cell under an empty header is named by its column number.
 */
export function formatTableRow(headers: readonly string[], cells: readonly string[]): string {
  const pairs: string[] = [];
  cells.forEach((cell, index) => {
    if (cell === '') return;
    const header = headers[index] || `Column ${index + 1}`;
    pairs.push(`${header}: ${cell}`);
  });
  return pairs.join('; ');
}

/** A row without headers (tables option off, or a one-row table): its non-empty cells in order. */
export function joinTableCells(cells: readonly string[]): string {
  return cells.filter((cell) => cell !== '').join(' | ');
}
