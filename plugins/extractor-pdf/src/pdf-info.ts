/** The info dictionary entries DocQA keeps, and the metadata key each becomes. */
const keptEntries = { Author: 'author', Subject: 'subject', Keywords: 'keywords', CreationDate: 'created' } as const;

/**
 * Title and metadata from a PDF's info dictionary (as pdf.js's getMetadata().info gives it).
 * Blank values are left out; the creation date becomes ISO 8601 when it parses.
 */
export function infoToMetadata(info: unknown): { title?: string; metadata: Record<string, string> } {
  const entries = (info ?? {}) as Record<string, unknown>;
  const metadata: Record<string, string> = {};
  for (const [entry, key] of Object.entries(keptEntries)) {
    const value = cleanString(entries[entry]);
    if (value === undefined) continue;
    metadata[key] = entry === 'CreationDate' ? (pdfDateToIso(value) ?? value) : value;
  }
  const title = cleanString(entries.Title);
  return title === undefined ? { metadata } : { title, metadata };
}

function cleanString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}

/**
 * A PDF date string ("D:YYYYMMDDHHmmSSOHH'mm'", every part after the year optional) as ISO 8601 in
 * UTC; undefined when it does not parse.
 */
export function pdfDateToIso(value: string): string | undefined {
  const match = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(\d{2})?'?)?)?/.exec(
    value.trim(),
  );
  if (!match) return undefined;
  const [
    ,
    year,
    month = '01',
    day = '01',
    hour = '00',
    minute = '00',
    second = '00',
    zone,
    zoneHours = '0',
    zoneMinutes = '0',
  ] = match;
  const sign = zone === '-' ? -1 : zone === '+' ? 1 : 0;
  const offsetMinutes = sign * (Number(zoneHours) * 60 + Number(zoneMinutes));
  const utc =
    Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) -
    offsetMinutes * 60_000;
  const date = new Date(utc);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
