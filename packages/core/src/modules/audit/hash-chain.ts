import crypto from 'node:crypto';

/** The chain's start: the previous hash of the first row ever written. */
export const genesisHash = '0'.repeat(64);

/** The fields a row's hash covers: everything but its position and its own hash. */
export interface ChainedFields {
  id: string;
  occurredAt: string;
  type: string;
  actorId: string | null;
  actorUsername: string | null;
  ip: string | null;
  target: string | null;
  outcome: string;
  details: unknown;
}

/**
 * SHA-256 over the previous hash and this row's fields in a fixed order. Details are serialised
 * with sorted keys, because jsonb does not keep the key order they were written in.
 */
export function chainHash(prevHash: string, fields: ChainedFields): string {
  const parts = [
    prevHash,
    fields.id,
    fields.occurredAt,
    fields.type,
    fields.actorId ?? '',
    fields.actorUsername ?? '',
    fields.ip ?? '',
    fields.target ?? '',
    fields.outcome,
    canonicalJson(fields.details),
  ];
  // A length prefix per part, so no choice of values can make two different rows hash alike.
  return crypto
    .createHash('sha256')
    .update(parts.map((part) => `${part.length}:${part}`).join('|'))
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
