// One attempt: the envelope, the headers, one POST through the SSRF-guarded client (which judges the
// URL again on every call and the address on every connection, refuses redirects, and enforces the
// deadline), and what came of it.
import { performance } from 'node:perf_hooks';
import type { SecretBox } from '../security/crypto.ts';
import { SsrfError, type GuardedClient, type SsrfErrorCode } from '../security/ssrf.ts';
import type { AttemptResult, ClaimedDelivery, ErrorKind } from './queue.ts';
import { signatureHeaders } from './signing.ts';
import { webhookHeadersData, webhookSecretData } from '../security/sealed-columns.ts';

export const USER_AGENT = 'Service-Webhooks/1.0';
const RESPONSE_BODY_LIMIT = 1024;

/** The POST body: the same bytes on every attempt of an event (its id and timestamp are fixed). */
export function envelope(event: ClaimedDelivery['event']): string {
  return JSON.stringify({ id: event.id, event: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}

export function requestHeaders(box: SecretBox, claim: ClaimedDelivery, body: string, now = Date.now()): Record<string, string> {
  const custom = claim.headersEnc ? (JSON.parse(box.decrypt(claim.headersEnc, webhookHeadersData(claim.webhookId))) as Record<string, string>) : {};
  const secret = claim.secretEnc ? box.decrypt(claim.secretEnc, webhookSecretData(claim.webhookId)) : undefined;
  // Custom headers first: the store refuses names that collide with ours, and ours are set last anyway.
  return {
    ...custom,
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    ...signatureHeaders(secret, claim.event.id, Math.floor(now / 1000), body),
  };
}

export async function attempt(client: GuardedClient, box: SecretBox, claim: ClaimedDelivery): Promise<AttemptResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const body = envelope(claim.event);
    const response = await client.fetch(claim.url, { method: 'POST', headers: requestHeaders(box, claim, body), body });
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      latencyMs: latency(),
      errorKind: ok ? null : 'http_status',
      error: ok ? null : `the receiver answered HTTP ${response.status}`,
      responseBody: truncate(response.body),
    };
  } catch (error) {
    return { ok: false, statusCode: null, latencyMs: latency(), ...describeFailure(error), responseBody: null };
  }
}

const KIND_OF: Record<SsrfErrorCode, ErrorKind> = {
  timeout: 'timeout',
  connect_failed: 'connect',
  dns_failure: 'connect',
  redirect_refused: 'redirect',
  too_many_redirects: 'redirect',
  invalid_url: 'blocked',
  not_https: 'blocked',
  credentials_in_url: 'blocked',
  blocked_address: 'blocked',
  too_large: 'too_large',
};

function describeFailure(error: unknown): { errorKind: ErrorKind; error: string } {
  if (error instanceof SsrfError) return { errorKind: KIND_OF[error.code], error: error.message };
  // Not the receiver's doing (e.g. a secret that no longer decrypts): still an attempt, on record.
  return { errorKind: 'internal', error: `Crier could not send this attempt: ${(error as Error).message ?? String(error)}` };
}

/** The first 1 KB, as text (a character cut in half is dropped); PostgreSQL text cannot hold NUL. */
function truncate(body: Buffer): string {
  const text = body.subarray(0, RESPONSE_BODY_LIMIT).toString('utf8').replace(/\u0000/g, '');
  return body.length > RESPONSE_BODY_LIMIT ? text.replace(/\uFFFD+$/, '') : text;
}
