// Checking a delivery the way Crier signs it (src/webhooks/signing.ts, README "Verifying signatures"):
//   X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>, keyed with the secret string's UTF-8 bytes;
//   webhook-signature:   v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">, keyed
//                        with the bytes after whsec_ (base64-decoded) for a whsec_ secret, else the UTF-8 bytes.
// Both must match: Crier sends both whenever the endpoint has a secret. The timestamp must be within
// the tolerance, so that a captured delivery cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const STANDARD_PREFIX = 'whsec_';
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function standardKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_PREFIX) ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Why the delivery is refused, or undefined when both of its signatures are Crier's. */
export function deliveryRefusal(secret: string, rawBody: Buffer, headers: IncomingHttpHeaders, nowSeconds = Date.now() / 1000): string | undefined {
  const serviceSignature = header(headers, 'x-service-signature');
  if (!serviceSignature) return 'missing X-Service-Signature';
  const expectedService = 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex');
  if (!sameText(serviceSignature, expectedService)) return 'X-Service-Signature does not match the body';

  const id = header(headers, 'webhook-id');
  const timestamp = Number(header(headers, 'webhook-timestamp'));
  if (!id || !Number.isInteger(timestamp)) return 'missing webhook-id or webhook-timestamp';
  if (Math.abs(nowSeconds - timestamp) > TIMESTAMP_TOLERANCE_SECONDS) return 'webhook-timestamp is outside the tolerance (a replayed delivery?)';
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), rawBody]);
  const expectedStandard = createHmac('sha256', standardKey(secret)).update(signed).digest('base64');
  // The header may list several signatures, separated by spaces (during a secret rotation).
  const signatures = (header(headers, 'webhook-signature') ?? '').split(' ');
  if (!signatures.some((s) => s.startsWith('v1,') && sameText(s.slice(3), expectedStandard))) return 'webhook-signature does not match';
  return undefined;
}
