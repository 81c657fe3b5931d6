// Webhook endpoints of an org: create, read, edit, delete. The signing secret and the custom headers
// (which often carry a receiver's credentials) are encrypted at rest; the secret is never returned.
import { withTransaction, type Db, type Queryable, type Tx } from '../db/pool.ts';
import { validationError, type FieldIssue } from '../core/errors.ts';
import type { SecretBox } from '../security/crypto.ts';
import { checkUrl, SsrfError } from '../security/ssrf.ts';
import { webhookHeadersData, webhookSecretData } from '../security/sealed-columns.ts';
import { EVENT_TYPES, type EventType } from './outbox.ts';
import { generateSecret, secretProblem } from './signing.ts';

export interface WebhookInput {
  name?: string;
  url?: string;
  /** A string sets the secret, null removes it (PATCH). */
  secret?: string | null;
  /** Crier generates a `whsec_` secret and returns it once. */
  generateSecret?: boolean;
  /** Replaces every custom header; null or {} removes them. */
  headers?: Record<string, string> | null;
  events?: string[];
  enabled?: boolean;
}

export interface WebhookJson {
  id: number;
  name: string;
  url: string;
  events: EventType[];
  headers: Record<string, string>;
  enabled: boolean;
  hasSecret: boolean;
  createdAt: string;
  updatedAt: string;
  /** Only in the response that generated it: the one time it is shown. */
  secret?: string;
}

interface WebhookRow {
  id: number;
  name: string;
  url: string;
  events: EventType[];
  enabled: boolean;
  secret_enc: Buffer | null;
  headers_enc: Buffer | null;
  created_at: Date;
  updated_at: Date;
}

export interface StoreDeps {
  box: SecretBox;
  /** The SSRF guard's test switch (CRIER_ALLOW_LOOPBACK_FETCH). */
  allowLoopback: boolean;
  /** In sandbox mode, Crier's own webhook inbox: the one http, loopback URL accepted (inbox.ts). */
  inboxUrl: string | undefined;
}

// Validation runs before the transaction: the URL check resolves DNS, which must not hold row locks.

export async function createWebhook(db: Db, deps: StoreDeps, orgId: number, input: WebhookInput): Promise<WebhookJson> {
  await assertValid(input, deps, true);
  return withTransaction(db, (tx) => insertWebhook(tx, deps, orgId, input));
}

async function insertWebhook(tx: Tx, deps: StoreDeps, orgId: number, input: WebhookInput): Promise<WebhookJson> {
  const { rows } = await tx.query<{ id: number }>(
    'INSERT INTO webhooks (org_id, name, url, events, enabled) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [orgId, input.name, input.url, unique(input.events!), input.enabled ?? true],
  );
  const id = rows[0]!.id;
  const generated = input.generateSecret ? generateSecret() : undefined;
  await saveSecrets(tx, deps.box, id, { ...input, secret: generated ?? input.secret });
  const created = (await getWebhook(tx, deps.box, orgId, id))!;
  return generated ? { ...created, secret: generated } : created;
}

/** Applies the fields present in `patch`; undefined when the org has no such webhook. */
export async function updateWebhook(db: Db, deps: StoreDeps, orgId: number, id: number, patch: WebhookInput): Promise<WebhookJson | undefined> {
  await assertValid(patch, deps, false);
  return withTransaction(db, (tx) => applyPatch(tx, deps, orgId, id, patch));
}

async function applyPatch(tx: Tx, deps: StoreDeps, orgId: number, id: number, patch: WebhookInput): Promise<WebhookJson | undefined> {
  const { rowCount } = await tx.query(
    `UPDATE webhooks SET name = coalesce($3, name), url = coalesce($4, url), events = coalesce($5, events),
            enabled = coalesce($6, enabled), updated_at = now()
      WHERE id = $1 AND org_id = $2`,
    [id, orgId, patch.name ?? null, patch.url ?? null, patch.events ? unique(patch.events) : null, patch.enabled ?? null],
  );
  if (!rowCount) return undefined;
  // Disabled means nothing more is sent: retries already scheduled are dropped with it.
  if (patch.enabled === false) await cancelPendingDeliveries(tx, id);
  const generated = patch.generateSecret ? generateSecret() : undefined;
  await saveSecrets(tx, deps.box, id, { ...patch, secret: generated ?? patch.secret });
  const updated = (await getWebhook(tx, deps.box, orgId, id))!;
  return generated ? { ...updated, secret: generated } : updated;
}

export async function deleteWebhook(db: Queryable, orgId: number, id: number): Promise<boolean> {
  // Its deliveries and their attempts go with it (ON DELETE CASCADE).
  const { rowCount } = await db.query('DELETE FROM webhooks WHERE id = $1 AND org_id = $2', [id, orgId]);
  return Boolean(rowCount);
}

export async function getWebhook(db: Queryable, box: SecretBox, orgId: number, id: number): Promise<WebhookJson | undefined> {
  const { rows } = await db.query<WebhookRow>('SELECT * FROM webhooks WHERE id = $1 AND org_id = $2', [id, orgId]);
  return rows[0] && toJson(box, rows[0]);
}

export async function listWebhooks(db: Queryable, box: SecretBox, orgId: number, page: { limit?: number; offset?: number }) {
  const limit = page.limit ?? 50;
  const offset = page.offset ?? 0;
  const [rows, total] = await Promise.all([
    db.query<WebhookRow>('SELECT * FROM webhooks WHERE org_id = $1 ORDER BY id LIMIT $2 OFFSET $3', [orgId, limit, offset]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [orgId]),
  ]);
  return { data: rows.rows.map((row) => toJson(box, row)), count: total.rows[0]!.n, limit, offset };
}

async function cancelPendingDeliveries(tx: Tx, webhookId: number): Promise<void> {
  await tx.query("UPDATE webhook_deliveries SET state = 'cancelled', finished_at = now() WHERE webhook_id = $1 AND state = 'pending'", [webhookId]);
}

/** Encrypts what `input` sets; the row id is the associated data, so it is written after the insert. */
async function saveSecrets(tx: Tx, box: SecretBox, id: number, input: WebhookInput): Promise<void> {
  if (input.secret !== undefined) {
    const enc = input.secret === null ? null : box.encrypt(input.secret, webhookSecretData(id));
    await tx.query('UPDATE webhooks SET secret_enc = $2 WHERE id = $1', [id, enc]);
  }
  if (input.headers !== undefined) {
    const empty = !input.headers || Object.keys(input.headers).length === 0;
    const enc = empty ? null : box.encrypt(JSON.stringify(input.headers), webhookHeadersData(id));
    await tx.query('UPDATE webhooks SET headers_enc = $2 WHERE id = $1', [id, enc]);
  }
}

function toJson(box: SecretBox, row: WebhookRow): WebhookJson {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    headers: row.headers_enc ? (JSON.parse(box.decrypt(row.headers_enc, webhookHeadersData(row.id))) as Record<string, string>) : {},
    enabled: row.enabled,
    hasSecret: row.secret_enc !== null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

// ---------------------------------------------------------------------------------------------
// Validation beyond the route schema: rules that need code (the URL guard, header names, secrets)

/** Headers Crier sets on every delivery: a custom header must not replace them (signatures, framing). */
const OWN_HEADERS = new Set(['content-type', 'user-agent', 'x-service-signature']);
/** Headers that control the HTTP exchange itself rather than describe the request. */
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const HEADER_VALUE = /^[\t\x20-\x7e]{0,2048}$/;
export const MAX_CUSTOM_HEADERS = 20;

async function assertValid(input: WebhookInput, deps: StoreDeps, creating: boolean): Promise<void> {
  const issues: FieldIssue[] = [];
  if (creating || input.url !== undefined) issues.push(...(await urlIssues(input.url ?? '', deps)));
  if (input.headers) issues.push(...headerIssues(input.headers));
  if (typeof input.secret === 'string') {
    const problem = secretProblem(input.secret);
    if (problem) issues.push({ field: 'secret', message: problem });
  }
  if (input.generateSecret && input.secret !== undefined) issues.push({ field: 'generateSecret', message: 'cannot be combined with secret' });
  if (input.events) issues.push(...eventIssues(input.events));
  if (issues.length) throw validationError(issues, summary(issues));
}

/** The refused header is named in the message too, not only in `details`. */
function summary(issues: FieldIssue[]): string {
  const header = issues.find((i) => i.field.startsWith('headers.'));
  return header ? `Custom header "${header.field.slice('headers.'.length)}" is not allowed: it ${header.message}` : 'Validation failed';
}

/**
 * The guard's own rules, applied at save time so a bad URL is refused at once (and again at delivery).
 * A name that does not resolve (yet) is accepted: DNS may be set up after the endpoint, and sending to
 * it fails like any unreachable receiver, on record in the delivery log and retried. An address the
 * name resolves to when it does is judged here and at every connection.
 */
async function urlIssues(url: string, deps: StoreDeps): Promise<FieldIssue[]> {
  try {
    await checkUrl(url, { allowLoopback: deps.allowLoopback, ownUrl: deps.inboxUrl });
    return [];
  } catch (error) {
    if (!(error instanceof SsrfError)) throw error;
    if (error.code === 'dns_failure') return [];
    return [{ field: 'url', message: `is refused (${error.code}): ${error.message}` }];
  }
}

export function headerIssues(headers: Record<string, string>): FieldIssue[] {
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS) return [{ field: 'headers', message: `must have at most ${MAX_CUSTOM_HEADERS} headers` }];
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    const field = `headers.${name}`;
    if (OWN_HEADERS.has(lower) || lower.startsWith('webhook-')) issues.push({ field, message: 'cannot override a header Crier sets on every delivery' });
    else if (TRANSPORT_HEADERS.has(lower)) issues.push({ field, message: 'controls the HTTP connection and cannot be set' });
    else if (!HEADER_NAME.test(name)) issues.push({ field, message: 'is not a valid header name' });
    else if (seen.has(lower)) issues.push({ field, message: 'is given twice (header names are case-insensitive)' });
    else if (typeof headers[name] !== 'string' || !HEADER_VALUE.test(headers[name])) issues.push({ field, message: 'must be printable ASCII, at most 2048 characters' });
    seen.add(lower);
  }
  return issues;
}

function eventIssues(events: string[]): FieldIssue[] {
  if (events.length === 0) return [{ field: 'events', message: 'must list at least one event type' }];
  return events.flatMap((event, i) =>
    (EVENT_TYPES as readonly string[]).includes(event) ? [] : [{ field: `events[${i}]`, message: `must be one of ${EVENT_TYPES.join(', ')}` }],
  );
}
