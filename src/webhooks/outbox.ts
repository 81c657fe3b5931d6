// The event outbox: events are written in the same transaction as the change they describe, so an
// event exists exactly when its change committed. The same statement fans the event out: one
// delivery per enabled webhook of the org subscribed to its type. So a committed event always has its
// deliveries, with no dispatcher to crash between the two, and webhooks created later never receive
// older events. The deliverer (worker.ts) is woken by a notification sent at commit.
import type { Queryable } from '../db/pool.ts';
import { MAX_ATTEMPTS } from './schedule.ts';

export const EVENT_TYPES = [
  'post.published', 'post.error', 'post.approval_requested', 'post.approved', 'post.rejected', 'account.token_expired', 'import.completed', 'import.failed',
  'bulk_import.completed',
  'conversation.started', 'message.received', 'message.sent', 'message.failed', 'comment.received', 'test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** LISTEN/NOTIFY channel: "deliveries are due now". PostgreSQL sends it only if the transaction commits. */
export const DELIVERY_CHANNEL = 'crier_webhook_deliveries';

/**
 * Writes an event and its deliveries; returns the event id. `data` is the spec's shape for `type`
 * (see events.ts, EventDataMap).
 */
export async function emitEvent(db: Queryable, orgId: number, type: EventType, data: Record<string, unknown>): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `WITH event AS (
       INSERT INTO events (org_id, type, data) VALUES ($1, $2, $3) RETURNING id, org_id, type
     ), fanned AS (
       INSERT INTO webhook_deliveries (org_id, webhook_id, event_id, max_attempts)
       SELECT w.org_id, w.id, event.id, $4
         FROM event JOIN webhooks w ON w.org_id = event.org_id AND w.enabled AND event.type = ANY (w.events)
       RETURNING 1
     ), woken AS (
       SELECT pg_notify('${DELIVERY_CHANNEL}', '') FROM (SELECT 1 FROM fanned LIMIT 1) AS any_delivery
     )
     SELECT event.id, (SELECT count(*) FROM woken) AS woken FROM event`,
    [orgId, type, JSON.stringify(data), MAX_ATTEMPTS],
  );
  return rows[0]!.id;
}

export interface NewEvent {
  orgId: number;
  type: EventType;
  data: Record<string, unknown>;
}

/** Writes several events and their deliveries in one statement (a batch of created posts' events). */
export async function emitEvents(db: Queryable, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `WITH source AS (
       SELECT e.org_id, e.type, e.data FROM jsonb_to_recordset($1::jsonb) AS e(org_id bigint, type text, data jsonb)
     ), ${outboxCtes('source')}
     SELECT (SELECT count(*) FROM woken) AS woken`,
    [JSON.stringify(events.map((e) => ({ org_id: e.orgId, type: e.type, data: e.data })))],
  );
}

/**
 * The outbox as part of another domain's statement, for events that statement produces (the
 * publishing engine finishes posts in batches, in one statement): CTEs `event`, `fanned` and `woken`
 * that write the rows of CTE `source` (columns org_id, type, data; rows whose type is null are not
 * events) as events and fan them out like emitEvent. The statement must read `woken` (for instance
 * `(SELECT count(*) FROM woken)`) for the deliverers to be notified.
 */
export function outboxCtes(source: string): string {
  return `event AS (
       INSERT INTO events (org_id, type, data)
       SELECT org_id, type, data FROM ${source} WHERE type IS NOT NULL
       RETURNING id, org_id, type
     ), fanned AS (
       INSERT INTO webhook_deliveries (org_id, webhook_id, event_id, max_attempts)
       SELECT w.org_id, w.id, event.id, ${MAX_ATTEMPTS}
         FROM event JOIN webhooks w ON w.org_id = event.org_id AND w.enabled AND event.type = ANY (w.events)
       RETURNING 1
     ), woken AS (
       SELECT pg_notify('${DELIVERY_CHANNEL}', '') FROM (SELECT 1 FROM fanned LIMIT 1) AS any_delivery
     )`;
}

/**
 * The Test action: a `test` event delivered to one webhook only (whatever it subscribed to), with
 * the normal retry schedule. Returns the event id.
 */
export async function emitTestEvent(db: Queryable, orgId: number, webhookId: number, message: string): Promise<string> {
  const data = { message, endpointId: webhookId };
  const { rows } = await db.query<{ id: string }>(
    `WITH event AS (
       INSERT INTO events (org_id, type, data) VALUES ($1, 'test', $2) RETURNING id
     ), queued AS (
       INSERT INTO webhook_deliveries (org_id, webhook_id, event_id, max_attempts)
       SELECT $1, $3, event.id, $4 FROM event
     )
     SELECT event.id FROM event`,
    [orgId, JSON.stringify(data), webhookId, MAX_ATTEMPTS],
  );
  await wakeDeliverers(db);
  return rows[0]!.id;
}

/** Tells every deliverer to look for due deliveries now (at commit, when called in a transaction). */
export async function wakeDeliverers(db: Queryable): Promise<void> {
  await db.query(`SELECT pg_notify('${DELIVERY_CHANNEL}', '')`);
}
