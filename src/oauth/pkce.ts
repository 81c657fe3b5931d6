// PKCE (RFC 7636), S256 only: the client proves at the token endpoint that it is the one that
// started the authorization, so an intercepted code is useless. `plain` would send the secret itself
// through the browser; it is refused.
import { createHash, timingSafeEqual } from 'node:crypto';

/** A verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: the base64url of a SHA-256, 43 characters without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function isVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isVerifier(verifier) || !isS256Challenge(challenge)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  return timingSafeEqual(computed, Buffer.from(challenge));
}
