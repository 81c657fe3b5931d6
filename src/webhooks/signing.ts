// Signing a delivery, two ways, with the endpoint's secret (see README.md for receivers):
//   X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>       (the spec)
//   webhook-signature:   v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">
//                        (Standard Webhooks: the timestamp is signed too, so receivers can refuse replays)
// The spec keys its HMAC "with the secret": the secret string's UTF-8 bytes, as configured. Standard
// Webhooks secrets are `whsec_` + base64 of the key bytes: for such a secret the webhook-signature
// key is the decoded bytes; for any other secret it is the string's UTF-8 bytes (what the
// `standardwebhooks` libraries call the "raw" format).
import { createHmac, randomBytes } from 'node:crypto';

export const STANDARD_PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PRINTABLE = /^[\x20-\x7e\u00a0-\uffff]+$/;
export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 256;

/** What Crier generates on request: a Standard Webhooks secret of 32 random bytes. */
export function generateSecret(): string {
  return STANDARD_PREFIX + randomBytes(32).toString('base64');
}

/** Why `secret` cannot be used, or undefined when it can. */
export function secretProblem(secret: string): string | undefined {
  if (secret.startsWith(STANDARD_PREFIX)) {
    const encoded = secret.slice(STANDARD_PREFIX.length);
    const bytes = Buffer.from(encoded, 'base64').length;
    if (!BASE64.test(encoded) || bytes < 24 || bytes > 64) return 'a whsec_ secret must be whsec_ followed by the base64 of 24 to 64 bytes';
    return undefined;
  }
  if (secret.length < SECRET_MIN_LENGTH || secret.length > SECRET_MAX_LENGTH) {
    return `must be ${SECRET_MIN_LENGTH} to ${SECRET_MAX_LENGTH} characters (or a whsec_ secret)`;
  }
  if (!PRINTABLE.test(secret)) return 'must not contain control characters';
  return undefined;
}

export function standardWebhooksKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_PREFIX) ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

export function serviceSignature(secret: string, body: string): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
}

export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return 'v1,' + createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
}

/**
 * The identification and signature headers of one attempt. `webhook-id` and `webhook-timestamp` are
 * sent even without a secret (receivers dedupe on the id); signatures only with one (spec).
 */
export function signatureHeaders(secret: string | undefined, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds) };
  if (secret === undefined) return headers;
  headers['x-service-signature'] = serviceSignature(secret, body);
  headers['webhook-signature'] = standardSignature(secret, id, timestampSeconds, body);
  return headers;
}
