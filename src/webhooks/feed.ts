// The event feed (GET /v1/events): the org's events, the very rows the webhooks deliver, read in
// order with a cursor. Order and cursor are (xact_id, seq) (migration 027): the id of the
// transaction that wrote the event, then its number within it. Transactions commit out of order, so
// the feed lists only events whose transaction is older than the oldest one still running in this
// database (the horizon below, from the statement's snapshot): every such transaction has ended, so no event
// can commit later with a smaller (xact_id, seq) than one already read: a reader who follows the
// cursor never skips an event. The cost: an event shows once every transaction older than its own
// has ended (milliseconds for Crier's own; a transaction left open on the database holds the feed).
// Retention is the delivery log's (retention.ts deletes the same rows).
import { validationError, type FieldIssue } from '../core/errors.ts';
import type { Queryable } from '../db/pool.ts';
import { EVENT_TYPES, type EventType } from './outbox.ts';

export const FEED_MAX_LIMIT = 100;
export const FEED_DEFAULT_LIMIT = 20;

/** One event as the feed shows it: the webhook body ({id, event, timestamp, data}) and its cursor. */
export interface FeedEvent {
  id: string;
  event: string;
  timestamp: string;
  data: unknown;
  /** Pass it as `after` to read the events that follow this one. */
  cursor: string;
}

export interface FeedPage {
  data: FeedEvent[];
  /** The cursor to pass as `after` next time: the last event's, or the `after` given; null before any event. */
  next: string | null;
  /** At least one more event can be read now after `next`. */
  hasMore: boolean;
}

/** The query as the route receives it: raw strings, judged here so that every bad field is named at once. */
export interface FeedQuery {
  after?: unknown;
  types?: unknown;
  limit?: unknown;
}

interface Position {
  xactId: string;
  seq: string;
}

interface FeedRequest {
  after: Position | null;
  types: EventType[] | null;
  limit: number;
}

const MAX_BIGINT = 2n ** 63n - 1n;

/** Opaque to clients: base64url of "<xact_id>.<seq>". */
export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.xactId}.${position.seq}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): Position | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const match = /^(\d{1,19})\.(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || BigInt(match[1]!) > MAX_BIGINT || BigInt(match[2]!) > MAX_BIGINT) return null;
  return { xactId: match[1]!, seq: match[2]! };
}

function parseAfter(value: unknown, issues: FieldIssue[]): Position | null {
  if (value === undefined) return null;
  const position = typeof value === 'string' ? decodeCursor(value) : null;
  if (!position) issues.push({ field: 'after', message: 'must be a cursor from this feed (an event\'s `cursor`, or a page\'s `next`)' });
  return position;
}

function parseTypes(value: unknown, issues: FieldIssue[]): EventType[] | null {
  if (value === undefined) return null;
  const names = typeof value === 'string' ? value.split(',').map((name) => name.trim()) : [];
  const unknown = names.filter((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    const what = names.length === 0 || unknown.every((name) => name === '') ? 'an empty list' : `unknown: ${unknown.map((n) => `"${n}"`).join(', ')}`;
    issues.push({ field: 'types', message: `must be a comma-separated list of event types (${EVENT_TYPES.join(', ')}); got ${what}` });
    return null;
  }
  return [...new Set(names)] as EventType[];
}

function parseLimit(value: unknown, issues: FieldIssue[]): number {
  if (value === undefined) return FEED_DEFAULT_LIMIT;
  const limit = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= FEED_MAX_LIMIT)) {
    issues.push({ field: 'limit', message: `must be an integer from 1 to ${FEED_MAX_LIMIT}` });
  }
  return limit;
}

/** Judges the query; a 400 naming every bad field. */
export function parseFeedQuery(query: FeedQuery): FeedRequest {
  const issues: FieldIssue[] = [];
  const repeated = (['after', 'types', 'limit'] as const).filter((field) => Array.isArray(query[field]));
  for (const field of repeated) issues.push({ field, message: 'must be given once' });
  const once = (field: keyof FeedQuery) => (repeated.includes(field) ? undefined : query[field]);
  const request = { after: parseAfter(once('after'), issues), types: parseTypes(once('types'), issues), limit: parseLimit(once('limit'), issues) };
  if (issues.length > 0) throw validationError(issues);
  return request;
}

interface EventRow {
  id: string;
  type: string;
  data: unknown;
  created_at: Date;
  xact_id: string;
  seq: string;
}

/**
 * The feed's horizon, as the first CTE of a statement: `horizon.xact`, the oldest transaction id
 * that may still be running for this database when the statement's snapshot was taken (its
 * running transactions, else the next id to be assigned). Every transaction below it has ended, and
 * its events are in the snapshot or never will be. Transactions are cluster-wide, so a transaction
 * pg_stat_activity shows in another database (a busy neighbour on a shared server) is not waited
 * for: an xid seen there is not one of ours. A transaction that ends between the snapshot and that
 * read, or whose backend_xid this role cannot see, is waited for: only ever later, never a skip.
 */
const HORIZON = `horizon AS (
       SELECT LEAST(
                pg_snapshot_xmax(s)::text::bigint,
                (SELECT min(x::text::bigint) FROM pg_snapshot_xip(s) AS x
                  WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.backend_xid = x::xid AND a.datname <> current_database()))
              ) AS xact
         FROM (SELECT pg_current_snapshot() AS s) AS snapshot
     )`;

/** The org's events after the cursor, oldest first (see the top of this file for why it never skips). */
export async function readFeed(db: Queryable, orgId: number, request: FeedRequest): Promise<FeedPage> {
  const { rows } = await db.query<EventRow>(
    `WITH ${HORIZON}
     SELECT e.id, e.type, e.data, e.created_at, e.xact_id::text, e.seq::text
       FROM events e, horizon
      WHERE e.org_id = $1
        AND (e.xact_id, e.seq) > ($2::bigint, $3::bigint)
        AND e.xact_id < horizon.xact
        AND ($4::text[] IS NULL OR e.type = ANY ($4::text[]))
      ORDER BY e.xact_id, e.seq
      LIMIT $5`,
    [orgId, request.after?.xactId ?? '0', request.after?.seq ?? '0', request.types, request.limit + 1],
  );
  const data = rows.slice(0, request.limit).map(feedEvent);
  const next = data.at(-1)?.cursor ?? (request.after ? encodeCursor(request.after) : null);
  return { data, next, hasMore: rows.length > request.limit };
}

/** The same id, type, timestamp and data as the delivery body (attempt.ts, envelope). */
function feedEvent(row: EventRow): FeedEvent {
  return {
    id: row.id,
    event: row.type,
    timestamp: row.created_at.toISOString(),
    data: row.data,
    cursor: encodeCursor({ xactId: row.xact_id, seq: row.seq }),
  };
}
