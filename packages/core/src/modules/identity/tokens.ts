import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { DocqaError, type Db, type SettingsService } from '@docqa/plugin-api';
import type { UserRow } from './users.js';

export type TokenType = 'access' | 'refresh' | 'mfa';

/** The claims of the decisions file: sub, role, typ, jti, iat, exp, ver, and fam (the sign-in) for refresh and access tokens. */
export interface TokenClaims {
  sub: string;
  role: UserRow['role'];
  typ: TokenType;
  jti: string;
  ver: number;
  iat: number;
  exp: number;
  fam?: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
}

const mfaTicketSeconds = 300;

/** JWT_SECRET_KEY as the HMAC key jsonwebtoken would make of the string (its UTF-8 bytes), once. */
export function jwtSecretKey(secret: string): crypto.KeyObject {
  return crypto.createSecretKey(Buffer.from(secret, 'utf8'));
}

/**
 * Signs and verifies DocQA's JWTs. Lifetimes are runtime settings, read at each signing, so a
 * change through the settings API applies to the next token without a restart.
 */
export class TokenService {
  /**
   * The secret as a key, made once: given a string, jsonwebtoken first tries it as a PEM public or
   * private key (an exception each time) and then makes the key, about 1 ms of CPU per token.
   */
  readonly #key: crypto.KeyObject;

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    secret: string,
    private readonly algorithm: jwt.Algorithm,
  ) {
    this.#key = jwtSecretKey(secret);
  }

  #sign(
    user: UserRow,
    typ: TokenType,
    seconds: number,
    extra: Record<string, unknown> = {},
  ): { token: string; jti: string; expiresAt: Date } {
    const jti = crypto.randomUUID();
    const token = jwt.sign({ role: user.role, typ, ver: user.token_version, ...extra }, this.#key, {
      algorithm: this.algorithm,
      subject: user.id,
      jwtid: jti,
      expiresIn: seconds,
    });
    return { token, jti, expiresAt: new Date(Date.now() + seconds * 1000) };
  }

  /** An access token of the sign-in `familyId`: revoking the family (a reused refresh token) ends it too. */
  signAccess(user: UserRow, familyId: string): string {
    return this.#sign(user, 'access', Number(this.settings.get('ACCESS_TOKEN_EXPIRE_SECONDS')), { fam: familyId })
      .token;
  }

  /** A new refresh token in `familyId` (a new sign-in starts a new family), recorded for rotation. */
  async issuePair(user: UserRow, familyId: string = crypto.randomUUID()): Promise<TokenPair> {
    const refresh = this.#sign(user, 'refresh', Number(this.settings.get('REFRESH_TOKEN_EXPIRE_SECONDS')), {
      fam: familyId,
    });
    await this.db.query('insert into refresh_token (jti, user_id, family_id, expires_at) values ($1, $2, $3, $4)', [
      refresh.jti,
      user.id,
      familyId,
      refresh.expiresAt.toISOString(),
    ]);
    return { access_token: this.signAccess(user, familyId), refresh_token: refresh.token, token_type: 'bearer' };
  }

  /** A short-lived, single-use ticket for the TOTP step of a login. */
  async issueMfaTicket(user: UserRow): Promise<string> {
    const ticket = this.#sign(user, 'mfa', mfaTicketSeconds);
    await this.db.query('insert into mfa_challenge (jti, user_id, expires_at) values ($1, $2, $3)', [
      ticket.jti,
      user.id,
      ticket.expiresAt.toISOString(),
    ]);
    return ticket.token;
  }

  /** Verifies signature, expiry and type; says which of them failed in the error code. */
  verify(token: string, expected: TokenType): TokenClaims {
    let claims: TokenClaims;
    try {
      claims = jwt.verify(token, this.#key, { algorithms: [this.algorithm] }) as TokenClaims;
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError)
        throw new DocqaError('token_expired', 'The token has expired; refresh it or sign in again.');
      throw new DocqaError('unauthorized', 'The token is not valid.');
    }
    if (
      claims.typ !== expected ||
      typeof claims.sub !== 'string' ||
      typeof claims.jti !== 'string' ||
      typeof claims.ver !== 'number'
    ) {
      throw new DocqaError('unauthorized', `This is not an ${expected} token.`);
    }
    return claims;
  }
}
