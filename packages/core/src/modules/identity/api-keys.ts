import crypto from 'node:crypto';
import { DocqaError, type AuditService, type Db } from '@docqa/plugin-api';
import type { Principal } from './principal.js';
import type { Role } from './users.js';

/** What a personal API key may be used for (docs/api-access.md); each narrows the user's role further. */
export type KeyScope = 'read' | 'write' | 'admin';

/** The key a request came with: the HTTP layer checks its scopes and limits its rate. */
export interface ApiKeyGrant {
  id: string;
  scopes: readonly KeyScope[];
}

/** Every key starts with this, so secret scanners (and people) recognise a leaked one. */
export const apiKeyPrefix = 'docqa_';
export const keyScopes: readonly KeyScope[] = ['read', 'write', 'admin'];
/** Characters of the secret shown with the prefix, to tell keys apart in a list. */
const shownCharacters = 8;
/** last_used_at is written at most this often per key: not a write on every request. */
const lastUsedPrecisionMs = 60_000;

/** What a role may grant its keys: a key never exceeds its user (and is also capped at each request). */
export function scopesForRole(role: Role): KeyScope[] {
  return role === 'admin' ? ['read', 'write', 'admin'] : role === 'editor' ? ['read', 'write'] : ['read'];
}

/** A key as the API lists it: never the secret nor its hash. */
export interface PublicApiKey {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

interface KeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  created_at: string | Date;
  expires_at: string | Date | null;
  last_used_at: string | Date | null;
  revoked_at: string | Date | null;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

function publicKey(row: KeyRow): PublicApiKey {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
  };
}

/**
 * SHA-256, not scrypt or bcrypt: a key is 256 random bits, so no dictionary or brute force gets
 * anywhere near it and a slow hash buys nothing, while it would cost every API request ~0.2 s and
 * 32 MiB (the password hash's price) and rule out finding a key by its hash in one indexed lookup.
 * Slow hashes are for secrets people choose. Looking a key up by its hash also leaks nothing
 * through timing: the hash of a guess says nothing about the hashes of real keys.
 */
const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

/** Personal API keys: created and listed by their user, revoked by them or an admin, looked up at each request. */
export class ApiKeyService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  async create(
    actor: Principal,
    fields: { name: string; scopes: KeyScope[]; expiresInDays: number | null },
    ip: string | null,
  ): Promise<PublicApiKey & { key: string }> {
    const allowed = scopesForRole(actor.role);
    const beyond = fields.scopes.filter((scope) => !allowed.includes(scope));
    if (beyond.length > 0) {
      const message = `may hold ${allowed.join(', ')} only`;
      const detail = `A ${actor.role} cannot give a key the scope ${beyond.join(', ')}: scopes ${message}.`;
      throw new DocqaError('validation_failed', detail, { errors: [{ field: 'body.scopes', message }] });
    }
    const key = apiKeyPrefix + crypto.randomBytes(32).toString('base64url');
    const prefix = key.slice(0, apiKeyPrefix.length + shownCharacters);
    const days = fields.expiresInDays;
    const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
    const { rows } = await this.db.query<KeyRow>(
      `insert into api_key (id, user_id, name, prefix, key_hash, scopes, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7) returning *`,
      [crypto.randomUUID(), actor.userId, fields.name, prefix, hashKey(key), [...new Set(fields.scopes)], expiresAt],
    );
    const created = publicKey(rows[0] as KeyRow);
    await this.audit.record({
      type: 'api_key.create',
      actor: { id: actor.userId, username: actor.username },
      ip,
      target: created.id,
      outcome: 'success',
      details: { name: created.name, prefix, scopes: created.scopes, expires_at: created.expires_at },
    });
    return { ...created, key };
  }

  /** A user's keys that still work or have expired; revoked ones are gone from the list. */
  async list(userId: string): Promise<PublicApiKey[]> {
    const { rows } = await this.db.query<KeyRow>(
      'select * from api_key where user_id = $1 and revoked_at is null order by created_at, id',
      [userId],
    );
    return rows.map(publicKey);
  }

  /** Revokes the key `id` of `ownerId`; from this statement on, the key is refused. */
  async revoke(actor: Principal, ownerId: string, id: string, ip: string | null): Promise<void> {
    const { rows } = await this.db.query<KeyRow>(
      'update api_key set revoked_at = now() where id = $1 and user_id = $2 and revoked_at is null returning *',
      [id, ownerId],
    );
    const row = rows[0];
    if (!row) throw new DocqaError('not_found', `API key ${id} was not found.`);
    await this.audit.record({
      type: 'api_key.revoke',
      actor: { id: actor.userId, username: actor.username },
      ip,
      target: row.id,
      outcome: 'success',
      details: { name: row.name, prefix: row.prefix, owner: ownerId },
    });
  }

  /**
   * The principal of a key, with its user's role as stored now: one indexed lookup per request and
   * no cache, so a revocation, a deletion (the key goes with its user) or a demotion counts at once.
   * The HTTP layer then checks the key's scopes and its rate (API_KEY_RATE_LIMIT).
   */
  async authenticate(key: string): Promise<Principal & { apiKey: ApiKeyGrant }> {
    const { rows } = await this.db.query<KeyRow & { username: string; role: Role }>(
      'select k.*, u.username, u.role from api_key k join app_user u on u.id = k.user_id where k.key_hash = $1',
      [hashKey(key)],
    );
    const row = rows[0];
    if (!row) throw new DocqaError('unauthorized', 'This API key is not valid.');
    if (row.revoked_at) throw new DocqaError('unauthorized', 'This API key was revoked.');
    if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) {
      throw new DocqaError('unauthorized', `This API key expired at ${iso(row.expires_at)}.`);
    }
    if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() >= lastUsedPrecisionMs) {
      await this.db.query('update api_key set last_used_at = now() where id = $1', [row.id]);
    }
    return { userId: row.user_id, username: row.username, role: row.role, apiKey: { id: row.id, scopes: row.scopes } };
  }
}
