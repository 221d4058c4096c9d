/**
 * The text of one cell as exceljs's streaming reader gives it. A formula counts as its cached result
 * (what the user sees), rich text as its runs joined, a date as ISO 8601 (the date alone when it has
 * no time of day), a number as JavaScript writes it, without the cell's display format.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return normalizeSpace(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDate(value);
  if (typeof value !== 'object') return '';
  const cell = value as Record<string, unknown>;
  if (Array.isArray(cell.richText))
    return normalizeSpace(cell.richText.map((run: { text?: unknown }) => String(run.text ?? '')).join(''));
  if ('formula' in cell || 'sharedFormula' in cell) return cellText(cell.result);
  if ('hyperlink' in cell || 'text' in cell) return cellText(cell.text);
  if (typeof cell.error === 'string') return cell.error;
  return '';
}

function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  // Excel stores dates in days; one without a time of day reads better without "T00:00:00.000Z".
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
