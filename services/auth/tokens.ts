import { createHash, randomBytes } from 'node:crypto';

/** Prefix of session tokens, so leaked tokens are recognisable by secret scanners. */
export const SESSION_TOKEN_PREFIX = 'fps_';

/** A new opaque session token: 32 random bytes, base64url, prefixed. */
export function newSessionToken(): string {
  return `${SESSION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What is stored instead of a token or a one-time code: its SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new SIWE nonce: 16 random bytes as 32 lowercase hex characters (EIP-4361 wants 8+ alphanumerics). */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** A single-use email verification code: 24 random bytes, base64url (usable in a link or typed in). */
export function newVerificationCode(): string {
  return randomBytes(24).toString('base64url');
}
