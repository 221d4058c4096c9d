import { DocqaError, type Db } from '@docqa/plugin-api';
import type { Principal } from './principal.js';
import {
  createSecretBox,
  generateRecoveryCodes,
  generateTotpSecret,
  hashRecoveryCode,
  matchRecoveryCode,
  otpauthUri,
  verifyPassword,
  verifyTotp,
  type SecretBox,
} from '../../crypto/index.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { TokenPair, TokenService } from './tokens.js';
import type { UserRepository, UserRow } from './users.js';

// Binds a sealed TOTP secret to its purpose and row, so it cannot be opened as another row's secret.
const sealedFor = (userId: string) => `totp:user:${userId}`;

/**
 * TOTP multi-factor sign-in: enrolment (setup, then enable with a first code), the login step,
 * recovery codes, and disabling. Secrets are sealed with MFA_ENCRYPTION_KEY (AES-256-GCM).
 */
export class MfaService {
  readonly #box: SecretBox;

  constructor(
    private readonly db: Db,
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    encryptionKey: string,
    private readonly signIns: SignInThrottle,
    private readonly issuer = 'DocQA',
  ) {
    this.#box = createSecretBox(encryptionKey);
  }

  async setup(principal: Principal): Promise<{ secret: string; otpauth_uri: string }> {
    const user = await this.#user(principal.userId);
    if (user.mfa_enabled)
      throw new DocqaError('conflict', 'TOTP is already enabled; disable it first to enrol a new authenticator.');
    const secret = generateTotpSecret();
    await this.users.update(user.id, {
      mfa_secret: this.#box.seal(secret, sealedFor(user.id)),
      mfa_last_counter: null,
    });
    return { secret, otpauth_uri: otpauthUri({ secret, accountName: user.username, issuer: this.issuer }) };
  }

  /** The first code proves the authenticator works; the answer holds the recovery codes, shown once. */
  async enable(principal: Principal, code: string): Promise<{ recovery_codes: string[] }> {
    const user = await this.#user(principal.userId);
    if (user.mfa_enabled) throw new DocqaError('conflict', 'TOTP is already enabled.');
    if (!user.mfa_secret) throw new DocqaError('conflict', 'Call /api/auth/mfa/totp/setup first.');
    await this.#checkCode(user, code);
    const recoveryCodes = generateRecoveryCodes();
    await this.users.update(user.id, { mfa_enabled: true, mfa_recovery_hashes: recoveryCodes.map(hashRecoveryCode) });
    return { recovery_codes: recoveryCodes };
  }

  async disable(principal: Principal, proof: { code?: string; password?: string }): Promise<void> {
    const user = await this.#user(principal.userId);
    if (!user.mfa_enabled) throw new DocqaError('conflict', 'TOTP is not enabled.');
    if (proof.code) await this.#checkCode(user, proof.code);
    else if (!proof.password || !user.password_hash || !(await verifyPassword(proof.password, user.password_hash))) {
      throw new DocqaError('invalid_credentials', 'The password is wrong.');
    }
    await this.users.update(user.id, {
      mfa_enabled: false,
      mfa_secret: null,
      mfa_last_counter: null,
      mfa_recovery_hashes: [],
    });
  }

  /** The second step of a login: the single-use ticket from the first, and a TOTP or recovery code. */
  async verifyLogin(mfaToken: string, code: string, client: string | null = null): Promise<TokenPair> {
    const claims = this.tokens.verify(mfaToken, 'mfa');
    const attempt = { account: `mfa:${claims.sub}`, client: client ?? 'unknown' };
    this.signIns.begin(attempt);
    const { rowCount } = await this.db.query(
      'update mfa_challenge set used_at = now() where jti = $1 and used_at is null and expires_at > now()',
      [claims.jti],
    );
    if (rowCount === 0)
      throw new DocqaError('unauthorized', 'This sign-in step has expired or was already used; sign in again.');
    const user = await this.users.byId(claims.sub);
    if (!user || !user.mfa_enabled || user.token_version !== claims.ver)
      throw new DocqaError('unauthorized', 'Sign in again.');
    try {
      if (/^\s*\d{6}\s*$/.test(code)) await this.#checkCode(user, code);
      else await this.#useRecoveryCode(user, code);
    } catch (error) {
      if (DocqaError.is(error, 'invalid_credentials')) this.signIns.failed(attempt);
      throw error;
    }
    this.signIns.succeeded(attempt);
    return this.tokens.issuePair(user);
  }

  async #checkCode(user: UserRow, code: string): Promise<void> {
    const secret = this.#box.open(user.mfa_secret as string, sealedFor(user.id));
    const lastUsedCounter = user.mfa_last_counter === null ? null : Number(user.mfa_last_counter);
    const result = verifyTotp(secret, code, { lastUsedCounter });
    if (!result.ok) {
      throw new DocqaError(
        'invalid_credentials',
        result.reason === 'replayed' ? 'This code was already used; wait for the next one.' : 'The code is wrong.',
      );
    }
    // Recording the counter only if it moves forward: two requests with one code cannot both pass.
    const { rowCount } = await this.db.query(
      'update app_user set mfa_last_counter = $2 where id = $1 and (mfa_last_counter is null or mfa_last_counter < $2)',
      [user.id, result.counter],
    );
    if (rowCount === 0)
      throw new DocqaError('invalid_credentials', 'This code was already used; wait for the next one.');
  }

  async #useRecoveryCode(user: UserRow, code: string): Promise<void> {
    const index = matchRecoveryCode(code, user.mfa_recovery_hashes);
    if (index < 0) throw new DocqaError('invalid_credentials', 'The code is wrong.');
    const used = user.mfa_recovery_hashes[index];
    // Removing exactly that hash, and only if still present: a recovery code works once.
    const { rowCount } = await this.db.query(
      `update app_user set mfa_recovery_hashes = mfa_recovery_hashes - $2 where id = $1 and mfa_recovery_hashes ? $2`,
      [user.id, used],
    );
    if (rowCount === 0) throw new DocqaError('invalid_credentials', 'This recovery code was already used.');
  }

  async #user(id: string): Promise<UserRow> {
    const user = await this.users.byId(id);
    if (!user) throw new DocqaError('unauthorized', 'The account of this token no longer exists.');
    return user;
  }
}
