// Meta's webhooks, as Instagram and Threads send them (engagement.md §3.6, §4.6): the subscription
// handshake and the X-Hub-Signature-256 check, shared by both networks' `inbound` capability.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { InboundRequest } from '../capabilities.ts';

/**
 * GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…: Meta checks the callback before it
 * sends anything. The challenge is echoed only for a token Crier issued; undefined when the request
 * is not a handshake.
 */
export function metaHandshake(request: InboundRequest, tokenIsValid: (token: string) => boolean): { status: number; body: string } | undefined {
  if (request.method !== 'GET' || request.query['hub.mode'] === undefined) return undefined;
  const token = request.query['hub.verify_token'] ?? '';
  const challenge = request.query['hub.challenge'] ?? '';
  if (request.query['hub.mode'] !== 'subscribe' || !tokenIsValid(token)) return { status: 403, body: 'verify token mismatch' };
  return { status: 200, body: challenge };
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`, compared in constant time. */
export function metaSignatureValid(request: InboundRequest, appSecret: string): boolean {
  const header = request.headers['x-hub-signature-256'];
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(request.rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The ids of a delivery's `entry[]` (the account each entry is for), read before the signature is checked. */
export function metaEntryIds(request: InboundRequest): string[] {
  try {
    const body = JSON.parse(request.rawBody.toString('utf8')) as { entry?: { id?: unknown }[] };
    return [...new Set((body.entry ?? []).map((entry) => String(entry.id ?? '')).filter(Boolean))];
  } catch {
    return [];
  }
}

/** A body as Meta would sign it, for emulators and tests: the header value for `rawBody`. */
export function metaSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
