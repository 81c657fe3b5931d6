// HS256 JSON Web Tokens, the format of the PDS's app-password sessions (access: typ "at+jwt",
// 2 h; refresh: typ "refresh+jwt", 90 days).
import { createHmac, timingSafeEqual } from 'node:crypto';

export type JwtCheck =
  | { ok: true; header: Record<string, unknown>; payload: Record<string, unknown> }
  | { ok: false; expired: boolean };

export function signJwt(header: Record<string, unknown>, payload: Record<string, unknown>, secret: Buffer): string {
  const body = `${b64(header)}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** Verifies signature, audience and expiry (against `nowSecs`, the emulator clock). */
export function verifyJwt(token: string, secret: Buffer, audience: string, nowSecs: number): JwtCheck {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || signature === undefined || token.split('.').length !== 3) return { ok: false, expired: false };
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, expired: false };
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (claims.aud !== undefined && claims.aud !== audience) return { ok: false, expired: false };
    if (typeof claims.exp === 'number' && claims.exp <= nowSecs) return { ok: false, expired: true };
    return { ok: true, header: head, payload: claims };
  } catch {
    return { ok: false, expired: false };
  }
}

function b64(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
