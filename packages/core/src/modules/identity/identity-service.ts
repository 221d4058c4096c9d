import crypto from 'node:crypto';
import { DocqaError, type AuditService, type Logger } from '@docqa/plugin-api';
import type { IdentityEnvironment } from './environment.js';
import type { Principal } from './principal.js';
import { dummyVerify, hashPassword, passwordProblems, verifyPassword } from '../../crypto/index.js';
import { TokenService, type TokenPair } from './tokens.js';
import { UserRepository, type Role, type UserRow } from './users.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { ApiKeyService } from './api-keys.js';

const resetTokenSeconds = 30 * 60;

export type LoginResult = TokenPair | { mfa_required: true; mfa_token: string };

function assertPassword(password: string, field: string): void {
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw new DocqaError('validation_failed', `The password is not acceptable: ${problems.join('; ')}.`, {
      errors: problems.map((message) => ({ field, message })),
    });
  }
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/**
 * Accounts, sign-in and sessions. Every change that should end other sessions (password change,
 * reset, sign-out everywhere, demotion) bumps the user's token version.
 */
export class IdentityService {
  readonly users: UserRepository;
  readonly tokens: TokenService;
  /** Failed sign-ins (password and second step), shared with the MFA service. */
  readonly signIns: SignInThrottle;
  readonly apiKeys: ApiKeyService;
  readonly #env: IdentityEnvironment;
  readonly #audit: AuditService;
  readonly #logger: Logger;

  constructor(env: IdentityEnvironment) {
    this.#env = env;
    this.users = new UserRepository(env.db, env.settings.propagationSeconds);
    this.tokens = new TokenService(env.db, env.settings, env.config.JWT_SECRET_KEY, env.config.JWT_ALGORITHM);
    this.#audit = env.audit;
    this.#logger = env.logger.child({ component: 'identity' });
    const v = env.config;
    this.apiKeys = new ApiKeyService(env.db, this.#audit);
    this.signIns = new SignInThrottle({
      accountFailures: v.SIGN_IN_ACCOUNT_FAILURES,
      accountTotalFailures: v.SIGN_IN_ACCOUNT_TOTAL_FAILURES,
      clientFailures: v.SIGN_IN_CLIENT_FAILURES,
      maxWaitSeconds: v.SIGN_IN_MAX_WAIT_SECONDS,
      accountTotalMaxWaitSeconds: Math.min(v.SIGN_IN_ACCOUNT_TOTAL_MAX_WAIT_SECONDS, v.SIGN_IN_MAX_WAIT_SECONDS),
      unsettledSeconds: v.SIGN_IN_UNSETTLED_SECONDS,
    });
  }

  /** First start: the admin from DEFAULT_ADMIN_USER / _PASSWORD / _EMAIL, when no user exists at all. */
  async ensureDefaultAdmin(): Promise<void> {
    if ((await this.users.count()) > 0) return;
    const v = this.#env.config;
    const admin = await this.users.create({
      username: v.DEFAULT_ADMIN_USER,
      email: v.DEFAULT_ADMIN_EMAIL ?? null,
      passwordHash: await hashPassword(v.DEFAULT_ADMIN_PASSWORD),
      role: 'admin',
    });
    await this.#audit.record({
      type: 'user.create',
      actor: null,
      ip: null,
      target: admin.id,
      outcome: 'success',
      details: { username: admin.username, role: 'admin', default_admin: true },
    });
    this.#logger.info({ username: v.DEFAULT_ADMIN_USER }, 'created the default admin account');
  }

  /** `client` is the caller's address: failed sign-ins are counted per account and per client. */
  async login(username: string, password: string, client: string | null = null): Promise<LoginResult> {
    const attempt = { account: username.toLowerCase(), client: client ?? 'unknown' };
    // Before the hash: a client over its limit costs a map lookup, not 32 MiB and 100 ms of scrypt.
    this.signIns.begin(attempt);
    const user = await this.users.byUsername(username);
    // Unknown users cost the same hash as known ones, so timing does not tell which names exist.
    const ok = user?.password_hash
      ? await verifyPassword(password, user.password_hash)
      : (await dummyVerify(password), false);
    if (!user || !ok) {
      this.signIns.failed(attempt);
      const actor = user ? { id: user.id, username: user.username } : null;
      await this.#audit.record({
        type: 'auth.login',
        actor,
        ip: client,
        target: username,
        outcome: 'failure',
        details: { reason: 'invalid_credentials' },
      });
      throw new DocqaError('invalid_credentials', 'The user name or password is wrong.');
    }
    this.signIns.succeeded(attempt);
    if (user.mfa_enabled) return { mfa_required: true, mfa_token: await this.tokens.issueMfaTicket(user) };
    return this.tokens.issuePair(user);
  }

  /**
   * Rotation with reuse detection: each refresh token works once. Presenting one that was already
   * used means it was copied, so the whole family (that sign-in) is revoked.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const claims = this.tokens.verify(refreshToken, 'refresh');
    const outcome = await this.#env.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ family_id: string; used_at: string | null; revoked_at: string | null }>(
        'select family_id, used_at, revoked_at from refresh_token where jti = $1 for update',
        [claims.jti],
      );
      const row = rows[0];
      if (!row) return 'unknown' as const;
      if (row.revoked_at) return 'revoked' as const;
      if (row.used_at) {
        await tx.query('update refresh_token set revoked_at = now() where family_id = $1 and revoked_at is null', [
          row.family_id,
        ]);
        return 'reused' as const;
      }
      await tx.query('update refresh_token set used_at = now() where jti = $1', [claims.jti]);
      return { familyId: row.family_id };
    });
    if (outcome === 'reused') {
      // The sign-in's access tokens end with it: checks read again from the committed revocation.
      this.users.forget(claims.sub);
      this.#logger.warn({ user_id: claims.sub }, 'a refresh token was used twice; its sign-in was revoked');
      throw new DocqaError(
        'unauthorized',
        'This refresh token was already used; that sign-in has been ended for safety. Sign in again.',
      );
    }
    if (typeof outcome === 'string')
      throw new DocqaError('unauthorized', 'This refresh token is no longer valid; sign in again.');
    const user = await this.users.byId(claims.sub);
    if (!user || user.token_version !== claims.ver)
      throw new DocqaError('unauthorized', 'This refresh token was revoked; sign in again.');
    return this.tokens.issuePair(user, outcome.familyId);
  }

  async logoutEverywhere(principal: Principal): Promise<void> {
    await this.users.revokeSessions(principal.userId);
  }

  async changePassword(
    principal: Principal,
    current: string,
    next: string,
    ip: string | null = null,
  ): Promise<TokenPair> {
    const user = await this.#require(principal.userId);
    if (!user.password_hash || !(await verifyPassword(current, user.password_hash))) {
      throw new DocqaError('invalid_credentials', 'The current password is wrong.');
    }
    assertPassword(next, 'body.new_password');
    const updated = await this.users.update(
      user.id,
      { password_hash: await hashPassword(next) },
      { revokeSessions: true },
    );
    await this.#audit.record({
      type: 'user.update',
      actor: { id: principal.userId, username: principal.username },
      ip,
      target: user.id,
      outcome: 'success',
      details: { password_changed: true },
    });
    // The caller stays signed in with a fresh pair; every older token is now refused.
    return this.tokens.issuePair(updated);
  }

  async setOwnEmail(principal: Principal, email: string | null): Promise<UserRow> {
    if (!email && this.#env.config.AUTH_REQUIRE_EMAIL) {
      throw new DocqaError('validation_failed', 'An email address is required (AUTH_REQUIRE_EMAIL).', {
        errors: [{ field: 'body.email', message: 'is required' }],
      });
    }
    return this.users.update(principal.userId, { email });
  }

  /**
   * Always the same answer, and the same time: the work for a known address (token, email) runs
   * after the response, so neither the status nor the timing tells whether an account exists.
   */
  forgotPassword(email: string): void {
    setImmediate(() => {
      this.#sendReset(email).catch((error: unknown) =>
        this.#logger.error({ err: error }, 'sending a password reset failed'),
      );
    });
  }

  async #sendReset(email: string): Promise<void> {
    const user = await this.users.byEmail(email);
    if (!user) return;
    const token = crypto.randomBytes(32).toString('base64url');
    await this.#env.db.query('insert into password_reset_token (token_hash, user_id, expires_at) values ($1, $2, $3)', [
      sha256(token),
      user.id,
      new Date(Date.now() + resetTokenSeconds * 1000).toISOString(),
    ]);
    const mailer = this.#env.email;
    if (!mailer) {
      this.#logger.warn('a password reset was requested but no email provider is configured (EMAIL_PROVIDER)');
      return;
    }
    const link = new URL(`/reset-password?token=${token}`, this.#env.config.PUBLIC_URL).toString();
    await mailer.send({
      to: user.email as string,
      subject: 'Reset your DocQA password',
      text: `Someone asked to reset the password of the DocQA account "${user.username}".\n\nTo choose a new password, open this link within 30 minutes:\n${link}\n\nThe link works once. If you did not ask for this, ignore this message; your password stays as it is.\n\nReset token: ${token}\n`,
    });
  }

  async resetPassword(token: string, password: string): Promise<void> {
    assertPassword(password, 'body.new_password');
    const passwordHash = await hashPassword(password);
    const userId = await this.#env.db.transaction(async (tx) => {
      // Consuming and checking in one statement: two concurrent uses cannot both succeed.
      const { rows } = await tx.query<{ user_id: string }>(
        'update password_reset_token set used_at = now() where token_hash = $1 and used_at is null and expires_at > now() returning user_id',
        [sha256(token)],
      );
      const row = rows[0];
      if (!row) return null;
      await this.users.update(row.user_id, { password_hash: passwordHash }, { revokeSessions: true, tx });
      await tx.query('update password_reset_token set used_at = now() where user_id = $1 and used_at is null', [
        row.user_id,
      ]);
      return row.user_id;
    });
    // Again after the commit: a token check between the update and the commit read the old row.
    if (userId) this.users.forget(userId);
    if (!userId)
      throw new DocqaError(
        'validation_failed',
        'This reset link is invalid, expired or already used; ask for a new one.',
        { errors: [{ field: 'body.token', message: 'is invalid, expired or already used' }] },
      );
  }

  async createUser(
    actor: Principal,
    ip: string | undefined,
    fields: { username: string; password: string; role: Role; email: string | null },
  ): Promise<UserRow> {
    assertPassword(fields.password, 'body.password');
    this.#requireEmailIfConfigured(fields.email);
    const user = await this.users.create({
      username: fields.username,
      email: fields.email,
      passwordHash: await hashPassword(fields.password),
      role: fields.role,
    });
    await this.#audit.record({
      type: 'user.create',
      actor: { id: actor.userId, username: actor.username },
      ip: ip ?? null,
      target: user.id,
      outcome: 'success',
      details: { username: user.username, role: user.role },
    });
    return user;
  }

  async updateUser(
    actor: Principal,
    id: string,
    changes: { password?: string; role?: Role; email?: string | null },
    ip: string | null = null,
  ): Promise<UserRow> {
    if (changes.password !== undefined) assertPassword(changes.password, 'body.password');
    if (changes.email !== undefined) this.#requireEmailIfConfigured(changes.email);
    const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
    const updated = await this.#env.db.transaction(async (tx) => {
      const user = await this.users.byId(id, tx);
      if (!user) throw new DocqaError('not_found', `User ${id} was not found.`);
      if (
        user.role === 'admin' &&
        changes.role &&
        changes.role !== 'admin' &&
        (await this.users.otherAdmins(id, tx)) === 0
      ) {
        throw new DocqaError('conflict', 'This is the last admin; make another user admin first.');
      }
      const demoted = changes.role !== undefined && changes.role !== user.role;
      return this.users.update(
        id,
        {
          ...(changes.role ? { role: changes.role } : {}),
          ...(passwordHash ? { password_hash: passwordHash } : {}),
          ...(changes.email !== undefined ? { email: changes.email } : {}),
        },
        // A new password or another role ends the sessions issued under the old ones.
        { revokeSessions: passwordHash !== undefined || demoted, tx },
      );
    });
    this.users.forget(id); // again after the commit (see UserRepository.forget)
    const details = {
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(passwordHash ? { password_changed: true } : {}),
      ...(changes.email !== undefined ? { email_changed: true } : {}),
    };
    await this.#audit.record({
      type: 'user.update',
      actor: { id: actor.userId, username: actor.username },
      ip,
      target: id,
      outcome: 'success',
      details,
    });
    return updated;
  }

  async deleteUser(actor: Principal, ip: string | undefined, id: string): Promise<void> {
    await this.#env.db.transaction(async (tx) => {
      const user = await this.users.byId(id, tx);
      if (!user) throw new DocqaError('not_found', `User ${id} was not found.`);
      if (user.role === 'admin' && (await this.users.otherAdmins(id, tx)) === 0) {
        throw new DocqaError('conflict', 'This is the last admin; make another user admin first.');
      }
      await this.users.delete(id, tx);
    });
    this.users.forget(id); // again after the commit (see UserRepository.forget)
    await this.#audit.record({
      type: 'user.delete',
      actor: { id: actor.userId, username: actor.username },
      ip: ip ?? null,
      target: id,
      outcome: 'success',
    });
  }

  async recordConfigUpdate(
    actor: Principal | null,
    ip: string | undefined,
    target: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    await this.#audit.record({
      type: 'config.update',
      actor: actor ? { id: actor.userId, username: actor.username } : null,
      ip: ip ?? null,
      target,
      outcome: 'success',
      details,
    });
  }

  async #require(id: string): Promise<UserRow> {
    const user = await this.users.byId(id);
    if (!user) throw new DocqaError('unauthorized', 'The account of this token no longer exists.');
    return user;
  }

  #requireEmailIfConfigured(email: string | null): void {
    if (!email && this.#env.config.AUTH_REQUIRE_EMAIL) {
      throw new DocqaError('validation_failed', 'An email address is required (AUTH_REQUIRE_EMAIL).', {
        errors: [{ field: 'body.email', message: 'is required' }],
      });
    }
  }
}
