// /v1/queues as the domain sees it: the checks the schema cannot make (a zone Intl knows, distinct
// slots, an account of the organization), the queue rows as the API writes them, and the preview of
// upcoming slots with the posts that stand in them.
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import { MINUTES_PER_DAY, minuteOfWeek, slotInstants, slotOf, type WeeklySlot } from './slots.ts';
import { canonicalZone, offsetAt } from '../validation/time-zone.ts';
import {
  deleteQueueRow, heldSlots, insertQueue, orgAccountExists, selectQueue, selectQueues, updateQueueRow, type QueueRow,
} from './store.ts';
import type { CreateQueueBody, ListQueuesQuery, UpdateQueueBody } from './schema.ts';

export interface QueueJson {
  id: string;
  socialAccountId: string;
  timeZone: string;
  slots: WeeklySlot[];
  createdAt: string;
  updatedAt: string;
}

export interface SlotPreview {
  at: string;
  day: WeeklySlot['day'];
  time: string;
  postIds: string[];
  withinSchedulingWindow: boolean;
}

const notFound = () => new RequestError(404, 'Queue not found', { code: 'not_found' });

export function toQueueJson(row: QueueRow): QueueJson {
  return {
    id: encodeId(row.id),
    socialAccountId: encodeId(row.account_id),
    timeZone: row.time_zone,
    slots: row.slots.map(slotOf),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function createQueue(db: Queryable, orgId: number, body: CreateQueueBody): Promise<QueueJson> {
  const accountId = decodeId(body.socialAccountId);
  const issues: FieldIssue[] = [];
  const zone = checkZone(body.timeZone, issues);
  const slots = checkSlots(body.slots, issues);
  if (accountId === undefined || !(await orgAccountExists(db, orgId, accountId))) {
    issues.unshift({ field: 'socialAccountId', message: 'no social account of this organization has this id' });
  }
  if (issues.length) throw validationError(issues);
  const row = await insertQueue(db, orgId, accountId!, zone!, slots!);
  if (!row) {
    throw new RequestError(409, 'This account has a queue already: change its slots with PATCH /v1/queues/{id}', {
      code: 'queue_exists', details: [{ field: 'socialAccountId', message: 'this account has a queue already' }],
    });
  }
  return toQueueJson(row);
}

export async function listQueues(db: Queryable, orgId: number, query: ListQueuesQuery): Promise<{ data: QueueJson[]; count: number; limit: number; offset: number }> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  let accountId: number | undefined;
  if (query.social_account_id !== undefined) {
    accountId = decodeId(query.social_account_id);
    // An id Crier never issued has no queue: an empty page, as for another organization's account.
    if (accountId === undefined) return { data: [], count: 0, limit, offset };
  }
  const page = await selectQueues(db, orgId, accountId, limit, offset);
  return { data: page.rows.map(toQueueJson), count: page.total, limit, offset };
}

export async function getQueue(db: Queryable, orgId: number, encodedId: string): Promise<QueueJson> {
  return toQueueJson(await requireQueue(db, orgId, encodedId));
}

export async function updateQueue(db: Queryable, orgId: number, encodedId: string, body: UpdateQueueBody): Promise<QueueJson> {
  const id = decodeId(encodedId);
  if (id === undefined) throw notFound();
  const issues: FieldIssue[] = [];
  if (body.timeZone === undefined && body.slots === undefined) issues.push({ field: 'slots', message: 'send "slots" and/or "timeZone"' });
  const zone = body.timeZone === undefined ? null : checkZone(body.timeZone, issues) ?? null;
  const slots = body.slots === undefined ? null : checkSlots(body.slots, issues) ?? null;
  if (issues.length) throw validationError(issues);
  const row = await updateQueueRow(db, orgId, id, zone, slots);
  if (!row) throw notFound();
  return toQueueJson(row);
}

export async function deleteQueue(db: Queryable, orgId: number, encodedId: string): Promise<void> {
  const id = decodeId(encodedId);
  if (id === undefined || !(await deleteQueueRow(db, orgId, id))) throw notFound();
}

/**
 * The queue's next `count` slots after `now`, each with the posts of its account that stand there.
 * Slots past the scheduling window are listed too, marked: the preview shows the rhythm, the
 * window says what "next-free-slot" can take today.
 */
export async function previewSlots(db: Queryable, orgId: number, encodedId: string, count: number, now: Date, horizonMs: number): Promise<SlotPreview[]> {
  const queue = await requireQueue(db, orgId, encodedId);
  const weeks = Math.ceil(count / queue.slots.length) + 1;
  const until = new Date(now.getTime() + weeks * 7 * MINUTES_PER_DAY * 60_000);
  const instants = slotInstants(queue.time_zone, queue.slots, now, until).slice(0, count);
  const last = instants.at(-1) ?? now;
  const held = await heldSlots(db, orgId, [queue.account_id], now, last);
  return instants.map((at) => {
    const local = new Date(at.getTime() + offsetAt(queue.time_zone, at.getTime()));
    const slot = slotOf(((local.getUTCDay() + 6) % 7) * MINUTES_PER_DAY + local.getUTCHours() * 60 + local.getUTCMinutes());
    return {
      at: at.toISOString(),
      ...slot,
      postIds: held.filter((h) => h.at.getTime() === at.getTime()).map((h) => encodeId(h.postId)),
      withinSchedulingWindow: at.getTime() - now.getTime() <= horizonMs,
    };
  });
}

async function requireQueue(db: Queryable, orgId: number, encodedId: string): Promise<QueueRow> {
  const id = decodeId(encodedId);
  const row = id === undefined ? undefined : await selectQueue(db, orgId, id);
  if (!row) throw notFound();
  return row;
}

function checkZone(zone: string, issues: FieldIssue[]): string | undefined {
  const canonical = canonicalZone(zone);
  if (canonical === undefined) issues.push({ field: 'timeZone', message: `"${zone}" is not an IANA time zone name Crier knows, such as Europe/Paris or America/New_York (a UTC offset has no daylight-saving rules: name the zone)` });
  return canonical;
}

/** The slots as stored (minutes from Monday 00:00, ascending), each duplicate reported at its index. */
function checkSlots(slots: WeeklySlot[], issues: FieldIssue[]): number[] | undefined {
  const firstIndex = new Map<number, number>();
  const before = issues.length;
  slots.forEach((slot, i) => {
    const minute = minuteOfWeek(slot);
    const earlier = firstIndex.get(minute);
    if (earlier === undefined) firstIndex.set(minute, i);
    else issues.push({ field: `slots[${i}]`, message: `repeats slots[${earlier}] (${slot.day} ${slot.time}); each slot may appear once` });
  });
  return issues.length > before ? undefined : [...firstIndex.keys()].sort((a, b) => a - b);
}
