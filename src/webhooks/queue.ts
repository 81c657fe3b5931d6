// Deliveries (one per event and endpoint) and their attempts, in SQL.
//
// A delivery is claimed by one statement that also writes the attempt row and pushes the delivery's
// next_attempt_at to the end of the attempt's lease. Nothing stays locked while the HTTP call runs;
// a worker killed mid-attempt simply never records the result, the lease lapses, and the next claim
// marks that attempt `interrupted` and tries again: at-least-once, with every attempt on record.
import type { Queryable } from '../db/pool.ts';
import { type EventType, wakeDeliverers } from './outbox.ts';

export type ErrorKind = 'timeout' | 'connect' | 'redirect' | 'http_status' | 'blocked' | 'too_large' | 'interrupted' | 'internal';

export interface ClaimedDelivery {
  deliveryId: number;
  attemptId: number;
  orgId: number;
  webhookId: number;
  /** This delivery's attempts so far, this one included, and its budget. */
  attemptCount: number;
  maxAttempts: number;
  event: { id: string; type: EventType; data: Record<string, unknown>; createdAt: Date };
  url: string;
  secretEnc: Buffer | null;
  headersEnc: Buffer | null;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  errorKind: ErrorKind | null;
  error: string | null;
  /** At most 1 KB of the receiver's answer. */
  responseBody: string | null;
}

const INTERRUPTED = 'the worker stopped before this attempt finished; the receiver may or may not have received it';

/** Claims up to `limit` due deliveries of enabled webhooks, each with a fresh attempt row. */
export async function claimDue(db: Queryable, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query(
    `WITH due AS (
       SELECT d.id, d.current_attempt_id
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
        WHERE d.state = 'pending' AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at
        LIMIT $1
        FOR UPDATE OF d SKIP LOCKED
     ), interrupted AS (
       UPDATE webhook_attempts a SET finished_at = now(), error_kind = 'interrupted', error = $3
         FROM due WHERE a.id = due.current_attempt_id AND a.finished_at IS NULL
     ), claimed AS (
       UPDATE webhook_deliveries d
          SET attempt_count = d.attempt_count + 1,
              current_attempt_id = nextval(pg_get_serial_sequence('webhook_attempts', 'id')),
              next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.org_id, d.webhook_id, d.event_id, d.attempt_count, d.max_attempts, d.current_attempt_id
     ), attempts AS (
       INSERT INTO webhook_attempts (id, org_id, delivery_id, webhook_id, event_id, attempt_number)
       SELECT c.current_attempt_id, c.org_id, c.id, c.webhook_id, c.event_id,
              1 + (SELECT count(*) FROM webhook_attempts a WHERE a.webhook_id = c.webhook_id AND a.event_id = c.event_id)
         FROM claimed c
     )
     SELECT c.id AS delivery_id, c.current_attempt_id AS attempt_id, c.org_id, c.webhook_id, c.attempt_count, c.max_attempts,
            e.id AS event_id, e.type, e.data, e.created_at, w.url, w.secret_enc, w.headers_enc
       FROM claimed c JOIN events e ON e.id = c.event_id JOIN webhooks w ON w.id = c.webhook_id`,
    [limit, leaseMs, INTERRUPTED],
  );
  return rows.map((r) => ({
    deliveryId: r.delivery_id,
    attemptId: r.attempt_id,
    orgId: r.org_id,
    webhookId: r.webhook_id,
    attemptCount: r.attempt_count,
    maxAttempts: r.max_attempts,
    event: { id: r.event_id, type: r.type, data: r.data, createdAt: r.created_at },
    url: r.url,
    secretEnc: r.secret_enc,
    headersEnc: r.headers_enc,
  }));
}

export interface RecordedAttempt {
  claim: ClaimedDelivery;
  result: AttemptResult;
  retryDelayMs: number;
}

/**
 * Records how attempts went and what happens next, in one statement for many attempts (one commit
 * instead of one each: commits are what limits throughput). Each delivery becomes delivered, failed
 * for good (budget spent), or due again after its retry delay. The attempt row is always written — a
 * late result also replaces the `interrupted` mark another worker gave it — but a delivery moves only
 * if the attempt is still its current one (a worker that outlived its lease must not reschedule a
 * delivery that was taken over).
 */
export async function recordResults(db: Queryable, attempts: RecordedAttempt[]): Promise<void> {
  // Same row order in every batch, so two concurrent batches cannot deadlock on each other.
  const rows = [...attempts].sort((a, b) => a.claim.deliveryId - b.claim.deliveryId);
  const column = <T>(pick: (a: RecordedAttempt) => T) => rows.map(pick);
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::float8[])
         AS r(attempt_id, delivery_id, status_code, latency_ms, error_kind, error, response_body, next_state, retry_delay_ms)
     ), attempt AS (
       UPDATE webhook_attempts a
          SET finished_at = now(), status_code = r.status_code, latency_ms = r.latency_ms, error_kind = r.error_kind,
              error = r.error, response_body = r.response_body
         FROM r WHERE a.id = r.attempt_id AND (a.finished_at IS NULL OR a.error_kind = 'interrupted')
     )
     UPDATE webhook_deliveries d
        SET state = r.next_state, current_attempt_id = NULL,
            next_attempt_at = CASE WHEN r.next_state = 'pending' THEN now() + r.retry_delay_ms * interval '1 millisecond' ELSE d.next_attempt_at END,
            finished_at = CASE WHEN r.next_state = 'pending' THEN NULL ELSE now() END
       FROM r WHERE d.id = r.delivery_id AND d.current_attempt_id = r.attempt_id AND d.state = 'pending'`,
    [
      column((a) => a.claim.attemptId),
      column((a) => a.claim.deliveryId),
      column((a) => a.result.statusCode),
      column((a) => a.result.latencyMs),
      column((a) => a.result.errorKind),
      column((a) => a.result.error),
      column((a) => a.result.responseBody),
      column(nextState),
      column((a) => a.retryDelayMs),
    ],
  );
}

function nextState({ claim, result }: RecordedAttempt): 'delivered' | 'failed' | 'pending' {
  if (result.ok) return 'delivered';
  return claim.attemptCount >= claim.maxAttempts ? 'failed' : 'pending';
}

/** Milliseconds until the next claimable delivery is due (negative: overdue); undefined when none. */
export async function msUntilNextDue(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ ms: number }>(
    `SELECT (extract(epoch FROM d.next_attempt_at - now()) * 1000)::float8 AS ms
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
      WHERE d.state = 'pending' ORDER BY d.next_attempt_at LIMIT 1`,
  );
  return rows[0]?.ms;
}

// ---------------------------------------------------------------------------------------------
// What the API shows and does

export interface AttemptJson {
  id: number;
  eventId: string;
  event: string;
  attempt: number;
  redelivery: boolean;
  startedAt: string;
  finishedAt: string | null;
  succeeded: boolean | null;
  statusCode: number | null;
  latencyMs: number | null;
  errorKind: ErrorKind | null;
  error: string | null;
  responseBody: string | null;
  /** Where this attempt's delivery stands now, and when it tries again if it will. */
  deliveryState: 'pending' | 'delivered' | 'failed' | 'cancelled';
  nextAttemptAt: string | null;
}

export interface AttemptPage {
  limit?: number;
  offset?: number;
  eventId?: string;
}

/** Every attempt at delivering to `webhookId`, newest first; undefined when the org has no such webhook. */
export async function listAttempts(db: Queryable, orgId: number, webhookId: number, page: AttemptPage) {
  const owned = await db.query('SELECT 1 FROM webhooks WHERE id = $1 AND org_id = $2', [webhookId, orgId]);
  if (!owned.rowCount) return undefined;
  const limit = page.limit ?? 50;
  const offset = page.offset ?? 0;
  const where = 'a.webhook_id = $1 AND ($2::uuid IS NULL OR a.event_id = $2::uuid)';
  const params = [webhookId, page.eventId ?? null];
  const [rows, total] = await Promise.all([
    db.query(
      `SELECT a.*, e.type, d.manual, d.state, d.next_attempt_at, d.current_attempt_id
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = a.event_id
        WHERE ${where} ORDER BY a.id DESC LIMIT $3 OFFSET $4`,
      [...params, limit, offset],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_attempts a WHERE ${where}`, params),
  ]);
  return { data: rows.rows.map(toAttemptJson), count: total.rows[0]!.n, limit, offset };
}

/**
 * Every attempt at delivering the events about one post (its `postId`), to any of the org's
 * webhooks, newest first, with the webhook's id and name; at most `limit`.
 */
export async function listPostAttempts(db: Queryable, orgId: number, encodedPostId: string, limit = 100): Promise<(AttemptJson & { webhookId: number; webhookName: string })[]> {
  const { rows } = await db.query(
    `SELECT a.*, e.type, d.manual, d.state, d.next_attempt_at, d.current_attempt_id, w.id AS webhook_id, w.name AS webhook_name
       FROM events e
       JOIN webhook_attempts a ON a.event_id = e.id
       JOIN webhook_deliveries d ON d.id = a.delivery_id
       JOIN webhooks w ON w.id = a.webhook_id
      WHERE e.org_id = $1 AND e.data ? 'postId' AND e.data->>'postId' = $2
      ORDER BY a.id DESC LIMIT $3`,
    [orgId, encodedPostId, limit],
  );
  return rows.map((r) => ({ ...toAttemptJson(r), webhookId: Number(r.webhook_id), webhookName: r.webhook_name }));
}

function toAttemptJson(r: any): AttemptJson {
  const finished = r.finished_at !== null;
  return {
    id: r.id,
    eventId: r.event_id,
    event: r.type,
    attempt: r.attempt_number,
    redelivery: r.manual,
    startedAt: r.started_at.toISOString(),
    finishedAt: finished ? r.finished_at.toISOString() : null,
    succeeded: finished ? r.error_kind === null : null,
    statusCode: r.status_code,
    latencyMs: r.latency_ms,
    errorKind: r.error_kind,
    error: r.error,
    responseBody: r.response_body,
    deliveryState: r.state,
    nextAttemptAt: r.state === 'pending' && r.current_attempt_id === null ? r.next_attempt_at.toISOString() : null,
  };
}

export type RedeliverOutcome = { eventId: string; webhookId: number } | 'not_found' | 'disabled';

/**
 * Queues one more attempt of the event of attempt `attemptId` to the same webhook: a delivery of its
 * own with a budget of one attempt (the caller is watching and can press again), same event id.
 */
export async function redeliver(db: Queryable, orgId: number, attemptId: number): Promise<RedeliverOutcome> {
  const { rows } = await db.query<{ event_id: string; webhook_id: number; enabled: boolean }>(
    `SELECT a.event_id, a.webhook_id, w.enabled FROM webhook_attempts a JOIN webhooks w ON w.id = a.webhook_id
      WHERE a.id = $1 AND w.org_id = $2`,
    [attemptId, orgId],
  );
  const found = rows[0];
  if (!found) return 'not_found';
  if (!found.enabled) return 'disabled';
  await db.query(
    'INSERT INTO webhook_deliveries (org_id, webhook_id, event_id, max_attempts, manual) VALUES ($1, $2, $3, 1, true)',
    [orgId, found.webhook_id, found.event_id],
  );
  await wakeDeliverers(db);
  return { eventId: found.event_id, webhookId: found.webhook_id };
}
