// The OAuth secrets Crier hands out: authorization codes, access tokens and refresh tokens. Each is
// 256 random bits with a prefix saying what it is, and only its SHA-256 is stored (a database leak
// leaks nothing usable); lookups go by the hash. Access tokens live an hour: a revoked grant is
// refused at once anyway (every lookup joins its key record), the short life bounds a leaked token.
import { createHash, randomBytes } from 'node:crypto';

/** Access tokens: never `crier_` (an API key), so the auth hook tells them apart by their first characters. */
export const ACCESS_TOKEN_PREFIX = 'crier-at-';
const REFRESH_TOKEN_PREFIX = 'crier-rt-';
const CODE_PREFIX = 'crier-ac-';
const CLIENT_ID_PREFIX = 'crier-client-';

export const ACCESS_TOKEN_SECONDS = 3600;
/** A refresh token unused this long expires; each refresh hands out a new one with a new period. */
export const REFRESH_TOKEN_SECONDS = 30 * 86_400;
/**
 * A refresh token presented again this soon after its first use, by its own client, is honoured
 * again (grants.ts): requests a client sent side by side meet the expiry together and each refreshes.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;
/** The browser comes straight back from consent to the client: two minutes is plenty (RFC 6749 says at most ten). */
export const CODE_SECONDS = 120;

export interface NewSecret {
  /** Handed out once, never stored. */
  value: string;
  hash: Buffer;
}

function newSecret(prefix: string): NewSecret {
  const value = prefix + randomBytes(32).toString('base64url');
  return { value, hash: hashSecret(value) };
}

export const newAccessToken = () => newSecret(ACCESS_TOKEN_PREFIX);
export const newRefreshToken = () => newSecret(REFRESH_TOKEN_PREFIX);
export const newCode = () => newSecret(CODE_PREFIX);
/** A client id is public (it travels in URLs); random so that registrations cannot be enumerated. */
export const newClientId = () => CLIENT_ID_PREFIX + randomBytes(16).toString('base64url');

export function hashSecret(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function isAccessToken(credential: string): boolean {
  return credential.startsWith(ACCESS_TOKEN_PREFIX);
}
