import { createToken } from '@docqa/plugin-api';

// What other code may know of the audit module: the log's entries, its queries and its token.
// Recording goes through the kernel's tokens.audit, which the same store serves (see index.ts).

export { chainHash, genesisHash, type ChainedFields } from './hash-chain.js';

export interface AuditEntry {
  id: string;
  seq: number;
  occurred_at: string;
  type: string;
  actor: { id: string; username: string } | null;
  ip: string | null;
  target: string | null;
  outcome: 'success' | 'failure';
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export interface AuditQuery {
  type?: string;
  /** A user id or a user name. */
  user?: string;
  outcome?: 'success' | 'failure';
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export interface ChainVerification {
  valid: boolean;
  checked: number;
  /** Where verification started: the genesis hash, or the hash of the last row the retention sweep removed. */
  anchor: { hash: string; after_seq: number | null };
  /** `id` is null when the entry that should be there is gone (the newest ones removed). */
  broken_at: { id: string | null; seq: number; reason: string } | null;
}

/** Reads, verifies and purges the hash-chained log; the HTTP layer and the retention sweep use it. */
export interface AuditLog {
  query(filter: AuditQuery): Promise<{ items: AuditEntry[]; total: number }>;
  /** `not_found` for an id the log does not hold. */
  get(id: string): Promise<AuditEntry>;
  /** Recomputes every hash from the anchor on, page by page, and names the first row that does not fit. */
  verify(): Promise<ChainVerification>;
  /** Removes entries older than `days` through audit_purge(), the log's one deleting path. */
  purgeOlderThan(days: number): Promise<number>;
}

export const auditTokens = {
  log: createToken<AuditLog>('audit.log'),
};
