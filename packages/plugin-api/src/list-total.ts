/**
 * The total of a paged list read with `count(*) over ()` beside each row. Past the last page there
 * is no row to carry the count, and the total read as 0; then the same query is run once more for
 * its first row (`firstRow`, limit 1 offset 0), whose count is the real total.
 */
export async function pageTotal<R>(
  rows: readonly R[],
  offset: number,
  countOf: (row: R) => number | string,
  firstRow: () => Promise<readonly R[]>,
): Promise<number> {
  const row = rows[0] ?? (offset > 0 ? (await firstRow())[0] : undefined);
  return row === undefined ? 0 : Number(countOf(row));
}
