// TOTP MFA, password hashing and secrets at rest: pure functions over node:crypto, shared by the identity and
// sources code that stores them.
export { createSecretBox, minimumSecretBoxKeyLength, type SecretBox } from './secret-box.js';
export { base32Decode, base32Encode } from './base32.js';
export {
  generateTotpSecret,
  otpauthUri,
  totpCode,
  totpDefaults,
  verifyTotp,
  type OtpauthUriInput,
  type VerifyTotpOptions,
  type VerifyTotpResult,
} from './totp.js';
export {
  generateRecoveryCodes,
  hashRecoveryCode,
  matchRecoveryCode,
  normaliseRecoveryCode,
  recoveryCodeBits,
} from './recovery-codes.js';
export {
  currentScryptParameters,
  dummyVerify,
  hashPassword,
  needsRehash,
  passwordLengthLimits,
  passwordProblems,
  verifyPassword,
} from './password-hash.js';
