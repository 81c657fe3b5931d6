// The event outbox: events are written in the same transaction as the change they describe, so an
// event exists exactly when its change committed. Delivery to webhooks reads from here.
import type { Queryable } from '../db/pool.ts';

export const EVENT_TYPES = [
  'post.published', 'post.error', 'account.token_expired', 'import.completed', 'import.failed',
  'conversation.started', 'message.received', 'message.sent', 'message.failed', 'comment.received', 'test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export async function emitEvent(db: Queryable, orgId: number, type: EventType, data: Record<string, unknown>): Promise<string> {
  const { rows } = await db.query<{ id: string }>('INSERT INTO events (org_id, type, data) VALUES ($1, $2, $3) RETURNING id', [orgId, type, JSON.stringify(data)]);
  return rows[0]!.id;
}
