// The sandbox's webhook inbox: a receiver built into Crier, so webhooks can be tried on one machine
// with no setup. In sandbox mode, a webhook whose URL is <PUBLIC_BASE_URL>/sandbox/webhook-inbox is
// accepted (the SSRF guard lets exactly that URL through) and delivered like any other: the
// deliverer POSTs the signed event there, and the inbox records what arrived (headers, raw body,
// whether the signatures verify with the webhook's secret) for the organization of that delivery.
//
// Who can write into an org's inbox: a POST is recorded only when its `webhook-id` names an event
// with an attempt in flight to an inbox webhook, and it is recorded for that delivery's org. Event
// ids are random UUIDs that only the org's own receivers and API ever show, so nobody can write into
// another org's inbox, and nothing arrives there that Crier did not send it.
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/pool.ts';
import type { SecretBox } from '../security/crypto.ts';
import { serviceSignature, standardSignature } from '../webhooks/signing.ts';
import { webhookSecretData } from '../security/sealed-columns.ts';

export const INBOX_PATH = '/sandbox/webhook-inbox';
/** What the inbox keeps per organization: the newest deliveries, enough to follow a session. */
export const INBOX_KEEP = 100;

/** The inbox's URL, only in sandbox mode. */
export function sandboxInboxUrl(config: Pick<Config, 'sandbox' | 'publicBaseUrl'>): string | undefined {
  return config.sandbox ? new URL(`${config.publicBaseUrl}${INBOX_PATH}`).href : undefined;
}

export interface Received {
  /** Request headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface SignatureCheck {
  /** null: the webhook has no secret, so its deliveries are not signed. */
  verified: boolean | null;
  detail: string;
}

interface InFlight {
  org_id: number;
  webhook_id: number;
  url: string;
  secret_enc: Buffer | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Records a delivery to the inbox; false when no attempt of that event is on its way here. */
export async function receiveAtInbox(db: Queryable, box: SecretBox, inboxUrl: string, received: Received): Promise<boolean> {
  const eventId = header(received, 'webhook-id');
  if (!UUID.test(eventId)) return false;
  const { rows } = await db.query<InFlight>(
    `SELECT d.org_id, d.webhook_id, w.url, w.secret_enc
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.event_id = $1 AND d.current_attempt_id IS NOT NULL`,
    [eventId],
  );
  const body = received.body.toString('utf8');
  const checked = rows
    .filter((row) => new URL(row.url).href === inboxUrl)
    .map((row) => ({ row, signature: checkSignatures(secretOf(box, row), received, body) }));
  // Several inbox webhooks of one org may receive the same event: the one whose secret signed it.
  const match = checked.find((c) => c.signature.verified) ?? checked[0];
  if (!match) return false;
  await db.query(
    `INSERT INTO sandbox_webhook_inbox (org_id, webhook_id, event_id, headers, body, signature_verified, signature_detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [match.row.org_id, match.row.webhook_id, eventId, JSON.stringify(received.headers), body.replace(/\u0000/g, ''), match.signature.verified, match.signature.detail],
  );
  await db.query(
    `DELETE FROM sandbox_webhook_inbox WHERE org_id = $1 AND id <= (
       SELECT id FROM sandbox_webhook_inbox WHERE org_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
    [match.row.org_id, INBOX_KEEP],
  );
  return true;
}

export interface InboxEntry {
  id: number;
  receivedAt: string;
  webhookId: number;
  eventId: string;
  /** The event type, from the body. */
  event: string | null;
  headers: Record<string, string>;
  /** The body, parsed when it is JSON (it always is when Crier sent it). */
  body: unknown;
  signature: SignatureCheck;
}

interface InboxRow {
  id: number;
  received_at: Date;
  webhook_id: number;
  event_id: string;
  headers: Record<string, string>;
  body: string;
  signature_verified: boolean | null;
  signature_detail: string;
}

/** The org's inbox, newest first. */
export async function listInbox(db: Queryable, orgId: number, limit: number): Promise<InboxEntry[]> {
  const { rows } = await db.query<InboxRow>('SELECT * FROM sandbox_webhook_inbox WHERE org_id = $1 ORDER BY id DESC LIMIT $2', [orgId, limit]);
  return rows.map((row) => {
    const body = parseJson(row.body);
    const event = typeof body === 'object' && body !== null && typeof (body as { event?: unknown }).event === 'string' ? (body as { event: string }).event : null;
    return {
      id: row.id,
      receivedAt: row.received_at.toISOString(),
      webhookId: row.webhook_id,
      eventId: row.event_id,
      event,
      headers: row.headers,
      body,
      signature: { verified: row.signature_verified, detail: row.signature_detail },
    };
  });
}

/** Both of Crier's signatures, checked the way the webhooks README tells a receiver to. */
function checkSignatures(secret: string | undefined, received: Received, body: string): SignatureCheck {
  if (secret === undefined) return { verified: null, detail: 'the webhook has no secret: its deliveries are not signed' };
  const service = sameText(header(received, 'x-service-signature'), serviceSignature(secret, body));
  const timestamp = Number(header(received, 'webhook-timestamp'));
  const expected = standardSignature(secret, header(received, 'webhook-id'), timestamp, body);
  const standard = header(received, 'webhook-signature').split(' ').some((signature) => sameText(signature, expected));
  if (service && standard) return { verified: true, detail: "X-Service-Signature and webhook-signature match the webhook's secret" };
  const failed = [!service && 'X-Service-Signature', !standard && 'webhook-signature'].filter(Boolean).join(' and ');
  return { verified: false, detail: `${failed} do not match the webhook's secret` };
}

function secretOf(box: SecretBox, row: InFlight): string | undefined {
  return row.secret_enc ? box.decrypt(row.secret_enc, webhookSecretData(row.webhook_id)) : undefined;
}

function header(received: Received, name: string): string {
  const value = received.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Constant-time comparison, as a receiver should compare signatures. */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
