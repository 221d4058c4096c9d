// Five-field cron expressions (minute hour day-of-month month day-of-week, UTC), as schedules use:
// a reading for people and the next run times, computed in the browser.

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const macros: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  aliases?: string[];
}

const specs: FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, aliases: monthNames.map((m) => m.slice(0, 3).toLowerCase()) },
  { name: 'day of week', min: 0, max: 7, aliases: dayNames.map((d) => d.slice(0, 3).toLowerCase()) },
];

export interface ParsedCron {
  fields: string[];
  values: Array<Set<number>>;
  /** Whether the field is restricted (not `*`). */
  restricted: boolean[];
}

function parseValue(text: string, spec: FieldSpec): number {
  const alias = spec.aliases?.indexOf(text.toLowerCase()) ?? -1;
  if (alias !== -1) return alias + (spec.name === 'month' ? 1 : 0);
  if (!/^\d+$/.test(text)) throw new Error(`"${text}" is not a valid ${spec.name}`);
  const value = Number(text);
  if (value < spec.min || value > spec.max) throw new Error(`${spec.name} ${value} is outside ${spec.min}–${spec.max}`);
  return value;
}

function parseField(text: string, spec: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`"${part}" has an invalid step`);
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [spec.min, spec.name === 'day of week' ? 6 : spec.max];
    else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      [from, to] = [parseValue(a, spec), parseValue(b, spec)];
      if (from > to) throw new Error(`"${range}" runs backwards`);
    } else {
      from = parseValue(range, spec);
      to = stepText === undefined ? from : spec.max;
    }
    for (let value = from; value <= to; value += step)
      values.add(spec.name === 'day of week' && value === 7 ? 0 : value);
  }
  return values;
}

export function parseCron(expression: string): ParsedCron {
  const text = macros[expression.trim().toLowerCase()] ?? expression.trim();
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    throw new Error('A cron expression has five fields: minute hour day-of-month month day-of-week');
  return {
    fields,
    values: fields.map((field, index) => parseField(field, specs[index]!)),
    restricted: fields.map((field) => field !== '*'),
  };
}

/** The next `count` run times after `from`, in UTC. */
export function nextRuns(cron: ParsedCron, count: number, from = new Date()): Date[] {
  const [minutes, hours, days, months, weekdays] = cron.values as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  const [, , domRestricted, , dowRestricted] = cron.restricted;
  const dayMatches = (date: Date) => {
    const dom = days.has(date.getUTCDate());
    const dow = weekdays.has(date.getUTCDay());
    // Classic cron: when both day fields are restricted, either one matching is enough.
    if (domRestricted && dowRestricted) return dom || dow;
    return dom && dow;
  };
  const runs: Date[] = [];
  const t = new Date(from.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  for (let guard = 0; runs.length < count && guard < 200_000; guard += 1) {
    if (!months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0);
    } else if (!dayMatches(t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0);
    } else if (!hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0);
    } else if (!minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1);
    } else {
      runs.push(new Date(t.getTime()));
      t.setUTCMinutes(t.getUTCMinutes() + 1);
    }
  }
  return runs;
}

const pad = (n: number) => String(n).padStart(2, '0');

const joinAnd = (names: string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');

function listOf(values: number[], name: (n: number) => string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const contiguous = sorted.length > 2 && sorted.every((v, i) => i === 0 || v === sorted[i - 1]! + 1);
  if (contiguous) return `${name(sorted[0]!)} to ${name(sorted[sorted.length - 1]!)}`;
  return joinAnd(sorted.map(name));
}

function stepOf(field: string): number | null {
  const match = /^\*\/(\d+)$/.exec(field);
  return match ? Number(match[1]) : null;
}

/** A reading such as "Every day at 02:30 UTC" or "Every 15 minutes, Monday to Friday". */
export function describeCron(cron: ParsedCron): string {
  const [minuteField = '*', hourField = '*'] = cron.fields;
  const [minutes, hours, days, months, weekdays] = cron.values.map((set) => [...set].sort((a, b) => a - b)) as [
    number[],
    number[],
    number[],
    number[],
    number[],
  ];
  let time: string;
  const minuteStep = stepOf(minuteField);
  if (minuteField === '*' && hourField === '*') time = 'Every minute';
  else if (minuteStep && hourField === '*') time = `Every ${minuteStep} minutes`;
  else if (minutes.length === 1 && hourField === '*') time = `Every hour at minute ${minutes[0]}`;
  else if (minutes.length * hours.length <= 6 && hourField !== '*')
    time = `At ${joinAnd(hours.flatMap((h) => minutes.map((m) => `${pad(h)}:${pad(m)}`)))} UTC`;
  else {
    const minutePart =
      minuteField === '*'
        ? 'every minute'
        : minuteStep
          ? `every ${minuteStep} minutes`
          : `at minute ${listOf(minutes, String)}`;
    const hourStep = stepOf(hourField);
    const hourPart =
      hourField === '*'
        ? ''
        : hourStep
          ? ` of every ${hourStep}th hour`
          : ` during hour ${listOf(hours, (h) => `${pad(h)}:00`)} UTC`;
    time = `${minutePart[0]!.toUpperCase()}${minutePart.slice(1)}${hourPart}`;
  }
  const [, , domRestricted, monthRestricted, dowRestricted] = cron.restricted;
  const parts = [time];
  if (domRestricted && dowRestricted)
    parts.push(`on day ${listOf(days, String)} of the month or on ${listOf(weekdays, (d) => dayNames[d]!)}`);
  else if (domRestricted) parts.push(`on day ${listOf(days, String)} of the month`);
  else if (dowRestricted) parts.push(`on ${listOf(weekdays, (d) => dayNames[d]!)}`);
  else if (!monthRestricted && time.startsWith('At'))
    parts[0] = `Every day ${time.charAt(0).toLowerCase()}${time.slice(1)}`;
  if (monthRestricted) parts.push(`in ${listOf(months, (m) => monthNames[m - 1]!)}`);
  return parts.join(', ');
}

/** A reading and the next runs, or the reason the expression is not valid. */
export function explainCron(expression: string, count = 5): { reading: string; next: Date[] } | { error: string } {
  try {
    const cron = parseCron(expression);
    return { reading: describeCron(cron), next: nextRuns(cron, count) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
