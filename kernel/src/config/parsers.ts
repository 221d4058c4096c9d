import { outboundAllowEntrySchema } from '@docqa/plugin-api';

/**
 * Parsers of environment values. Each one turns a raw string into a typed value or throws a short
 * phrase ("must be a whole number") that the loader completes into one line naming the variable.
 */
export type Parser<T> = (raw: string) => T;

export class InvalidValue extends Error {}

export const text: Parser<string> = (raw) => raw;

export function nonEmpty(what = 'a non-empty value'): Parser<string> {
  return (raw) => {
    if (raw.trim() === '') throw new InvalidValue(`must be ${what}`);
    return raw.trim();
  };
}

export function int(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  return (raw) => {
    const trimmed = raw.trim();
    if (!/^[-+]?\d+$/.test(trimmed)) throw new InvalidValue(`must be a whole number${range(min, max)}`);
    const value = Number(trimmed);
    if (value < min || value > max) throw new InvalidValue(`must be a whole number${range(min, max)}`);
    return value;
  };
}

function range(min: number, max: number): string {
  if (min !== Number.MIN_SAFE_INTEGER && max !== Number.MAX_SAFE_INTEGER) return ` from ${min} to ${max}`;
  if (min !== Number.MIN_SAFE_INTEGER) return ` of at least ${min}`;
  if (max !== Number.MAX_SAFE_INTEGER) return ` of at most ${max}`;
  return '';
}

const truthy = new Set(['1', 'true', 'yes', 'on']);
const falsy = new Set(['0', 'false', 'no', 'off']);

export const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (truthy.has(v)) return true;
  if (falsy.has(v)) return false;
  throw new InvalidValue('must be true or false (also 1/0, yes/no, on/off)');
};

export function oneOf<const T extends string>(
  values: readonly T[],
  options: { caseInsensitive?: boolean } = {},
): Parser<T> {
  return (raw) => {
    const v = raw.trim();
    const found = values.find((candidate) =>
      options.caseInsensitive ? candidate.toLowerCase() === v.toLowerCase() : candidate === v,
    );
    if (found === undefined) throw new InvalidValue(`must be one of ${values.join(', ')}`);
    return found;
  };
}

export function url(protocols: readonly string[]): Parser<string> {
  return (raw) => {
    let parsed: URL;
    try {
      parsed = new URL(raw.trim());
    } catch {
      throw new InvalidValue(`must be a URL (${protocols.join(', ')})`);
    }
    if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
      throw new InvalidValue(`must be a URL with scheme ${protocols.join(' or ')}`);
    }
    return raw.trim();
  };
}

export const email: Parser<string> = (raw) => {
  const v = raw.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) throw new InvalidValue('must be an email address');
  return v;
};

export function list(separator: string, item: Parser<string> = nonEmpty()): Parser<string[]> {
  return (raw) =>
    raw
      .split(separator)
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map(item);
}

/** An OUTBOUND_ALLOW entry: a host name, an IP address or a CIDR range. */
export const outboundAllowEntry: Parser<string> = (raw) => {
  const result = outboundAllowEntrySchema.safeParse(raw);
  if (!result.success) throw new InvalidValue(`'${raw}' must be a host name, an IP address or a CIDR range`);
  return result.data;
};

export const absolutePath: Parser<string> = (raw) => {
  if (!raw.startsWith('/')) throw new InvalidValue('must be an absolute path');
  return raw;
};

/**
 * RAG_RERANK_MODEL: a catalogue name, or a .gguf file name (a path below MODELS_DIR at most), never
 * a path out of MODELS_DIR: the models directory is the one place models are vetted and shared.
 */
export const rerankModel: Parser<string> = (raw) => {
  const value = raw.trim();
  if (/\.gguf$/i.test(value)) {
    const parts = value.split(/[\\/]/);
    if (value.startsWith('/') || parts.some((part) => part === '..' || part === ''))
      throw new InvalidValue('must be a .gguf file name inside MODELS_DIR (no absolute path, no ..)');
    return value;
  }
  if (!/^[a-z0-9][a-z0-9._-]{0,99}$/.test(value))
    throw new InvalidValue('must be a model catalogue name or a .gguf file name in MODELS_DIR');
  return value;
};

/** nginx's rate syntax: `10r/m` or `5r/s`. */
export const requestRate: Parser<{ count: number; per: 'second' | 'minute'; text: string }> = (raw) => {
  const match = /^(\d+)r\/([sm])$/.exec(raw.trim());
  if (!match || Number(match[1]) < 1) throw new InvalidValue('must be a rate such as 10r/m or 5r/s');
  return { count: Number(match[1]), per: match[2] === 's' ? 'second' : 'minute', text: raw.trim() };
};

/** A byte size such as `1mb`, `512kb` or a plain number of bytes. */
export const byteSize: Parser<number> = (raw) => {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  if (!match) throw new InvalidValue('must be a size such as 1mb, 512kb or a number of bytes');
  const unit = (match[2] ?? 'b').toLowerCase();
  const factor = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[unit] ?? 1;
  return Number(match[1]) * factor;
};

/** An ISO 639-1 language code ("en", "zh"), lower-cased. */
export const languageCode: Parser<string> = (raw) => {
  const code = raw.trim().toLowerCase();
  if (!/^[a-z]{2}$/.test(code))
    throw new InvalidValue('must be ISO 639-1 language codes (two letters, such as en,de,zh)');
  return code;
};
