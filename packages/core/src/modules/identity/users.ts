import crypto from 'node:crypto';
import { DocqaError, type Db, type SqlExecutor } from '@docqa/plugin-api';
import { VerifiedUsers, type VerifiedUser } from './verified-users.js';

import type { Role } from './principal.js';

export type { Role };
export const roles: readonly Role[] = ['admin', 'editor', 'viewer'];

export interface UserRow {
  id: string;
  username: string;
  email: string | null;
  password_hash: string | null;
  role: Role;
  token_version: number;
  mfa_secret: string | null;
  mfa_enabled: boolean;
  mfa_last_counter: string | null;
  mfa_recovery_hashes: string[];
  sso_provider: string | null;
  sso_subject: string | null;
  created_at: string;
  updated_at: string;
}

/** The user record the API answers: never a hash or a secret. */
export interface PublicUser {
  id: string;
  username: string;
  email: string | null;
  role: Role;
  mfa_enabled: boolean;
  sso_provider: string | null;
  created_at: string;
  updated_at: string;
}

export function publicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    mfa_enabled: row.mfa_enabled,
    sso_provider: row.sso_provider,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

const uniqueViolation = '23505';

function conflictOnDuplicate(error: unknown): never {
  const e = error as { code?: string; constraint?: string };
  if (e.code === uniqueViolation) {
    const what = e.constraint?.includes('email')
      ? 'email address'
      : e.constraint?.includes('sso')
        ? 'single sign-on account'
        : 'user name';
    throw new DocqaError('conflict', `Another user already has this ${what}.`);
  }
  throw error;
}

/** SQL over app_user. Usernames and emails compare case-insensitively, as people type them. */
export class UserRepository {
  /**
   * What access-token checks read, kept `verifiedSeconds` (the kernel's propagationSeconds: another
   * replica's change counts here within the delay of a runtime setting); every write below forgets
   * the user it changed, so this process's own changes count at once.
   */
  readonly verified: VerifiedUsers;

  constructor(
    private readonly db: Db,
    verifiedSeconds = 5,
  ) {
    this.verified = new VerifiedUsers(verifiedSeconds * 1000);
  }

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>('select count(*) as n from app_user');
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The user of an access token, and whether its sign-in (`familyId`) was revoked, in one statement
   * and at most once per `verifiedSeconds` per sign-in and process: every authenticated request asks.
   */
  forAccessToken(id: string, familyId: string | null): Promise<VerifiedUser | null> {
    return this.verified.load(id, familyId, async () => {
      const { rows } = await this.db.query<VerifiedUser>(
        `select u.id, u.username, u.role, u.token_version, ($2::uuid is not null and exists (select 1 from refresh_token r where r.family_id = $2::uuid and r.revoked_at is not null)) as family_revoked
           from app_user u where u.id = $1`,
        [id, familyId],
      );
      return rows[0] ?? null;
    });
  }

  /**
   * Forgets what access-token checks read of a user. The writes below call it themselves; a caller
   * whose transaction made them calls it again once that commits, since a check in between could
   * have read the row as it was before.
   */
  forget(id: string): void {
    this.verified.forget(id);
  }

  async byId(id: string, tx: SqlExecutor = this.db): Promise<UserRow | null> {
    const { rows } = await tx.query<UserRow>('select * from app_user where id = $1', [id]);
    return rows[0] ?? null;
  }

  async byUsername(username: string): Promise<UserRow | null> {
    const { rows } = await this.db.query<UserRow>('select * from app_user where lower(username) = lower($1)', [
      username,
    ]);
    return rows[0] ?? null;
  }

  async byEmail(email: string): Promise<UserRow | null> {
    const { rows } = await this.db.query<UserRow>('select * from app_user where lower(email) = lower($1)', [email]);
    return rows[0] ?? null;
  }

  async list(limit: number, offset: number): Promise<{ items: UserRow[]; total: number }> {
    const { rows } = await this.db.query<UserRow & { total: string }>(
      'select *, count(*) over () as total from app_user order by lower(username) limit $1 offset $2',
      [limit, offset],
    );
    const total = rows[0] ? Number(rows[0].total) : await this.count();
    return { items: rows, total };
  }

  async create(fields: {
    username: string;
    email: string | null;
    passwordHash: string | null;
    role: Role;
    ssoProvider?: string;
    ssoSubject?: string;
  }): Promise<UserRow> {
    try {
      const { rows } = await this.db.query<UserRow>(
        `insert into app_user (id, username, email, password_hash, role, sso_provider, sso_subject) values ($1, $2, $3, $4, $5, $6, $7) returning *`,
        [
          crypto.randomUUID(),
          fields.username,
          fields.email,
          fields.passwordHash,
          fields.role,
          fields.ssoProvider ?? null,
          fields.ssoSubject ?? null,
        ],
      );
      return rows[0] as UserRow;
    } catch (error) {
      conflictOnDuplicate(error);
    }
  }

  /**
   * Updates the given columns. `revokeSessions` bumps the token version, so every token issued
   * before stops working, and revokes the refresh tokens. A new password also revokes the API keys.
   */
  async update(
    id: string,
    changes: Partial<
      Pick<
        UserRow,
        'email' | 'password_hash' | 'role' | 'mfa_secret' | 'mfa_enabled' | 'mfa_last_counter' | 'mfa_recovery_hashes'
      >
    >,
    options: { revokeSessions?: boolean; tx?: SqlExecutor } = {},
  ): Promise<UserRow> {
    const tx = options.tx ?? this.db;
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [column, value] of Object.entries(changes)) {
      values.push(column === 'mfa_recovery_hashes' ? JSON.stringify(value) : value);
      sets.push(`${column} = $${values.length}`);
    }
    if (options.revokeSessions) sets.push('token_version = token_version + 1');
    sets.push('updated_at = now()');
    try {
      const { rows } = await tx.query<UserRow>(
        `update app_user set ${sets.join(', ')} where id = $1 returning *`,
        values,
      );
      if (!rows[0]) throw new DocqaError('not_found', `User ${id} was not found.`);
      if (options.revokeSessions)
        await tx.query('update refresh_token set revoked_at = now() where user_id = $1 and revoked_at is null', [id]);
      // A new password (changed, reset or set by an admin) says the account may have been in other
      // hands: its API keys end with it, in the same transaction (docs/api-access.md).
      if (changes.password_hash !== undefined) {
        await tx.query('update api_key set revoked_at = now() where user_id = $1 and revoked_at is null', [id]);
      }
      this.forget(id);
      return rows[0];
    } catch (error) {
      conflictOnDuplicate(error);
    }
  }

  async revokeSessions(id: string): Promise<void> {
    await this.update(id, {}, { revokeSessions: true });
  }

  async delete(id: string, tx: SqlExecutor = this.db): Promise<boolean> {
    const result = await tx.query('delete from app_user where id = $1', [id]);
    this.forget(id);
    return result.rowCount > 0;
  }

  /** Admins other than `exceptId`, locked for the rest of the transaction so two demotions cannot race. */
  async otherAdmins(exceptId: string, tx: SqlExecutor): Promise<number> {
    const { rows } = await tx.query<{ id: string }>(
      `select id from app_user where role = 'admin' and id <> $1 for update`,
      [exceptId],
    );
    return rows.length;
  }
}
