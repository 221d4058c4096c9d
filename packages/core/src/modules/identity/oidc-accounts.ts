import { DocqaError, type AuditService, type Db, type Logger } from '@docqa/plugin-api';
import type { UserRepository, UserRow } from './users.js';

/** What DocQA needs to know about the person an IdP vouched for. */
export interface OidcIdentity {
  provider: string;
  subject: string;
  email: string | null;
  preferredUsername: string | null;
  name: string | null;
  groups: string[];
}

// The user name rules of the users API: letters, digits and . _ @ + -, at most 64 characters.
const usernameLimit = 64;
const maximumAttempts = 50;

/** An IdP's name for the person, made acceptable as a DocQA user name, or null when nothing is left. */
function usernameBase(identity: OidcIdentity): string | null {
  const emailLocalPart = identity.email?.split('@')[0] ?? null;
  for (const candidate of [identity.preferredUsername, emailLocalPart, identity.name]) {
    const cleaned = candidate
      ?.normalize('NFKC')
      .trim()
      .replace(/\s+/g, '.')
      .replace(/[^\p{L}\p{N}._@+-]/gu, '')
      .slice(0, usernameLimit - 4);
    if (cleaned) return cleaned;
  }
  return null;
}

/**
 * Finds or creates the DocQA account of an SSO identity. Accounts are linked by (provider,
 * subject) only, never by email: an IdP that lets people pick any address must not open
 * somebody else's local account.
 */
export class OidcAccounts {
  constructor(
    private readonly db: Db,
    private readonly users: UserRepository,
    private readonly audit: AuditService,
    private readonly logger: Logger,
  ) {}

  async bySubject(provider: string, subject: string): Promise<UserRow | null> {
    const { rows } = await this.db.query<UserRow>(
      'select * from app_user where sso_provider = $1 and sso_subject = $2',
      [provider, subject],
    );
    return rows[0] ?? null;
  }

  /**
   * The linked account, created on first sign-in as a viewer. Admin-group members are promoted at
   * every sign-in; leaving the group does not demote (the role may have been given by hand), so
   * demotion stays an admin's decision.
   */
  async signIn(identity: OidcIdentity, adminGroups: readonly string[]): Promise<UserRow> {
    const user = (await this.bySubject(identity.provider, identity.subject)) ?? (await this.#provision(identity));
    const isAdminMember = identity.groups.some((group) => adminGroups.includes(group));
    if (isAdminMember && user.role !== 'admin') {
      const promoted = await this.users.update(user.id, { role: 'admin' });
      this.logger.info(
        { user_id: user.id, provider: identity.provider },
        'promoted a single sign-on user to admin: member of an admin group',
      );
      return promoted;
    }
    return user;
  }

  async #provision(identity: OidcIdentity): Promise<UserRow> {
    const base = usernameBase(identity) ?? `${identity.provider}-user`;
    // An address another account already holds is left out rather than refused: the person can
    // still sign in, and an admin can sort the address out.
    let email = identity.email && !(await this.users.byEmail(identity.email)) ? identity.email : null;
    for (let attempt = 1; attempt <= maximumAttempts; attempt += 1) {
      const username = attempt === 1 ? base : `${base}-${attempt}`;
      if (await this.users.byUsername(username)) continue;
      try {
        const user = await this.users.create({
          username,
          email,
          passwordHash: null,
          role: 'viewer',
          ssoProvider: identity.provider,
          ssoSubject: identity.subject,
        });
        await this.audit.record({
          type: 'user.create',
          actor: null,
          ip: null,
          target: user.id,
          outcome: 'success',
          details: { username, role: 'viewer', sso_provider: identity.provider },
        });
        return user;
      } catch (error) {
        if (!DocqaError.is(error, 'conflict')) throw error;
        // A concurrent first sign-in of the same person won the race: use the account it made.
        const linked = await this.bySubject(identity.provider, identity.subject);
        if (linked) return linked;
        // Otherwise the name or the address was taken between the check and the insert.
        if (email && (await this.users.byEmail(email))) email = null;
      }
    }
    throw new DocqaError('conflict', `No free user name was found for "${base}"; ask an admin to free one.`);
  }
}
