// Verifying a webhook delivery from Crier before trusting it. Crier signs each delivery twice with
// the endpoint's secret (src/webhooks/signing.ts): `X-Service-Signature: sha256=<hex HMAC of the body>`
// and the Standard Webhooks headers (`webhook-signature: v1,<base64 HMAC of "id.timestamp.body">`).
// Both must match, and the signed timestamp must be recent, so a captured delivery cannot be replayed.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type WebhookVerification =
  | { ok: true; id: string; timestamp: number; payload: unknown }
  | { ok: false; reason: string };

export interface VerifyOptions {
  /** How far the signed timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** "Now" in milliseconds, for checking a stored delivery. */
  now?: number;
}

const STANDARD_PREFIX = 'whsec_';

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The Standard Webhooks key: the decoded bytes of a `whsec_` secret, else the secret's UTF-8 bytes. */
function standardKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_PREFIX) ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

function checkStandard(body: Buffer, headers: WebhookHeaders, secret: string, options: VerifyOptions): WebhookVerification {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature' };
  const timestamp = Number(timestampText);
  if (!Number.isInteger(timestamp)) return { ok: false, reason: 'webhook-timestamp is not a number of seconds' };
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return { ok: false, reason: 'webhook-timestamp is outside the tolerance (a replay, or a clock off)' };
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  const expected = createHmac('sha256', standardKey(secret)).update(signed).digest('base64');
  // The header may list several space-separated signatures (key rotation): one matching is enough.
  const matches = signatures.split(' ').some((entry) => entry.startsWith('v1,') && sameText(entry.slice(3), expected));
  if (!matches) return { ok: false, reason: 'webhook-signature does not match' };
  return { ok: true, id, timestamp, payload: undefined };
}

/**
 * Checks a delivery's signatures against the webhook's secret. `rawBody` must be the bytes exactly
 * as received (not re-serialized JSON). On success the parsed payload is returned.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): WebhookVerification {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const service = header(headers, 'x-service-signature');
  if (!service) return { ok: false, reason: 'missing X-Service-Signature' };
  const expected = 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
  if (!sameText(service.toLowerCase(), expected)) return { ok: false, reason: 'X-Service-Signature does not match' };
  const standard = checkStandard(body, headers, secret, options);
  if (!standard.ok) return standard;
  try {
    return { ...standard, payload: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
}
