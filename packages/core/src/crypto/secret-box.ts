import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { DocqaError } from '@docqa/plugin-api';

/**
 * Authenticated encryption of small secrets at rest (TOTP secrets, OIDC client secrets) with
 * AES-256-GCM under a key derived from MFA_ENCRYPTION_KEY.
 */
export interface SecretBox {
  /**
   * Encrypts `plaintext`. `associatedData` (for example the owning row's id) is authenticated but not
   * stored: the value only opens again with the same associated data, so a sealed secret copied into
   * another row is refused instead of silently working there.
   */
  seal(plaintext: string, associatedData?: string): string;
  /** Decrypts a value `seal` produced; throws DocqaError('internal') when it does not authenticate. */
  open(sealed: string, associatedData?: string): string;
}

export const minimumSecretBoxKeyLength = 32;

// The version prefix lets a later format (another cipher or key) sit beside this one in the database.
const formatVersion = 'v1';
// Fixed and public on purpose: HKDF's salt and info separate this key from any other key a future
// feature derives from the same MFA_ENCRYPTION_KEY; they are not secrets.
const hkdfSalt = 'docqa:mfa-encryption-key:salt';
const hkdfInfo = 'docqa:secret-box:v1';
const keyBytes = 32;
// 96-bit nonces are GCM's native size; random ones stay safe far beyond the number of secrets we seal.
const nonceBytes = 12;
const tagBytes = 16;

const undecryptableMessage = 'A stored secret could not be decrypted (was MFA_ENCRYPTION_KEY changed?)';

export function createSecretBox(key: string): SecretBox {
  if (key.length < minimumSecretBoxKeyLength) {
    throw new DocqaError(
      'config_invalid',
      `MFA_ENCRYPTION_KEY must be at least ${minimumSecretBoxKeyLength} characters long.`,
    );
  }
  const derivedKey = Buffer.from(hkdfSync('sha256', Buffer.from(key, 'utf8'), hkdfSalt, hkdfInfo, keyBytes));

  return {
    seal(plaintext, associatedData = '') {
      const nonce = randomBytes(nonceBytes);
      const cipher = createCipheriv('aes-256-gcm', derivedKey, nonce, { authTagLength: tagBytes });
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [formatVersion, nonce, ciphertext, tag]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },

    open(sealed, associatedData = '') {
      const parts = parseSealed(sealed);
      if (!parts) throw new DocqaError('internal', undecryptableMessage);
      try {
        const decipher = createDecipheriv('aes-256-gcm', derivedKey, parts.nonce, { authTagLength: tagBytes });
        decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(parts.tag);
        return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
      } catch (error) {
        // Node's own message ("unable to authenticate data") carries no secret, so it may stay as cause.
        throw new DocqaError('internal', undecryptableMessage, { cause: error });
      }
    },
  };
}

interface SealedParts {
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function parseSealed(sealed: string): SealedParts | null {
  const pieces = sealed.split('.');
  if (pieces.length !== 4 || pieces[0] !== formatVersion) return null;
  const [nonce, ciphertext, tag] = pieces.slice(1).map(decodeCanonicalBase64url);
  if (!nonce || !ciphertext || !tag) return null;
  if (nonce.length !== nonceBytes || tag.length !== tagBytes) return null;
  return { nonce, ciphertext, tag };
}

/**
 * Node's base64url decoder skips characters it does not know and ignores the spare bits of the last
 * character, so two different strings can decode to the same bytes. Accepting only the canonical
 * spelling makes every change to a sealed value fail, not just most of them.
 */
function decodeCanonicalBase64url(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}
