import crypto from 'node:crypto';
import type { Db } from '@docqa/plugin-api';
import type { SecretBox } from '../../crypto/index.js';

export interface StartedLogin {
  providerName: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string | null;
}

// Long enough for a person to type a password and a second factor at the IdP, short enough that
// a leaked authorization URL is soon useless.
const lifetimeMilliseconds = 10 * 60 * 1000;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
// The verifier opens only for the state it was stored under.
const sealedFor = (stateHash: string) => `oidc-state:${stateHash}`;

/** Sign-ins between /login and /callback: one row each, taken once. */
export class OidcLoginStates {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async save(state: string, login: StartedLogin): Promise<void> {
    const stateHash = sha256(state);
    // Sweeping here keeps the table at about ten minutes of sign-ins without a scheduled job.
    await this.db.query('delete from oidc_login_state where expires_at < now()');
    await this.db.query(
      'insert into oidc_login_state (state_hash, provider_name, code_verifier, nonce, return_to, expires_at) values ($1, $2, $3, $4, $5, $6)',
      [
        stateHash,
        login.providerName,
        this.box.seal(login.codeVerifier, sealedFor(stateHash)),
        login.nonce,
        login.returnTo,
        new Date(Date.now() + lifetimeMilliseconds).toISOString(),
      ],
    );
  }

  /**
   * Deletes and answers the sign-in of `state`, or null when it is unknown, expired or already
   * taken. Taking and checking in one statement: two callbacks with one state cannot both succeed.
   */
  async take(state: string): Promise<StartedLogin | null> {
    const stateHash = sha256(state);
    const { rows } = await this.db.query<{
      provider_name: string;
      code_verifier: string;
      nonce: string;
      return_to: string | null;
    }>(
      'delete from oidc_login_state where state_hash = $1 and expires_at > now() returning provider_name, code_verifier, nonce, return_to',
      [stateHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      providerName: row.provider_name,
      codeVerifier: this.box.open(row.code_verifier, sealedFor(stateHash)),
      nonce: row.nonce,
      returnTo: row.return_to,
    };
  }
}
