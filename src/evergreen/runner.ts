// The evergreen runner: re-shares each active collection's items as ordinary posts, exactly once, in
// the loop of every background queue (background/loop.ts), like the recurrence runner.
//
// Policy: one post ahead. A collection's first post is created at once, each next one when the one
// before it falls due. Its time is the accounts' next free queue slot ("next-free-slot", taken under the
// create path's slot lock) or the rule's next occurrence (never more than the 30-day scheduling window
// ahead; one reached more than an hour late is skipped, never published late).
//
// Which item: the one used longest ago (never used first) whose last turn is at least `min_gap_days`
// before the new post's time — for a queue collection, before now, since its slot is not known until the
// create path takes it — ties to the lower position. None eligible: the collection records why and
// waits (a queue collection until the first item's gap has passed, a rule collection to its next
// occurrence, passing this one over); adding an item or changing the gap looks again at once.
//
// Which content: the item's own, then each variation in order, cycling, counted over the posts made
// from that item. Networks that refuse repeated text (X, LinkedIn) get a different text each time while
// there are variations; once they come round again, the network's refusal fails the destination with
// its own reason — never a false success.
//
// Exactly once: a pass locks the collection row (FOR UPDATE SKIP LOCKED, re-checking that it is still
// due) and the chosen item row, creates the post through the create path (posts/create.ts writeCreates:
// validation, account resolution, approval, queue slots and quotas), writes the turn's row — primary key
// (collection, run) — records the item's use and moves the collection on, all in one transaction. A
// crash rolls all of it back; a second runner skips the locked row, or finds it moved on.
//
// A turn the create path refuses for the item's sake (an account gone, a network rule) is recorded with
// the reason and no post, and counts as the item's turn, so one bad item does not hold the others up. A
// queue collection whose accounts have no free slot (no queue, a full window) is not the item's fault: it
// waits with the reason and tries again in an hour (or when patched).
import type { Logger } from 'pino';
import { startDueRowsRunner, takeDue, type DueRows } from '../background/due-rows.ts';
import type { RequestError } from '../core/errors.ts';
import { withTransaction, type Db, type Tx } from '../db/pool.ts';
import { createPostInTransaction } from '../posts/runner-create.ts';
import { SCHEDULE_HORIZON_MS } from '../posts/validate.ts';
import { NEXT_FREE_SLOT } from '../queues/next-slot.ts';
import { notifyDue } from '../publishing/queue.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { firstNotBefore, occurrenceAfter } from '../recurrences/rule.ts';
import { LATE_GRACE_MS } from '../recurrences/runner.ts';
import { withoutContent } from '../recurrences/validate.ts';
import { COLLECTION_COLUMNS, EVERGREEN_CHANNEL, ITEM_COLUMNS, scheduleOf, type CollectionRow, type ItemRow } from './store.ts';

const MS_PER_DAY = 86_400_000;
/** How long a queue collection whose accounts have no free slot waits before asking again. */
export const NO_SLOT_RETRY_MS = 60 * 60_000;

export interface EvergreenDeps {
  db: Db;
  logger: Logger;
  /** How the items' media URLs are judged, as POST /v1/posts judges them (recurrences/runner.ts occurrenceFetchPolicy). */
  fetch: FetchPolicy;
  /** The clock (tests step it). */
  now?: () => Date;
}

export interface EvergreenRunner { stop(): Promise<void> }

export function startEvergreenRunner(deps: EvergreenDeps, options: { pollMs?: number } = {}): EvergreenRunner {
  return startDueRowsRunner(deps.db, deps.logger, dueRowsOf(deps), { ...options, ...(deps.now ? { now: deps.now } : {}) });
}

/** One pass over every collection due at `now` (what the runner does; tests call it with their clock). */
export function runDue(deps: EvergreenDeps, now: Date): Promise<number> {
  return takeDue(deps.db, dueRowsOf(deps), now);
}

const dueRowsOf = (deps: EvergreenDeps): DueRows => ({
  table: 'evergreen_collections', label: 'evergreen runner', channel: EVERGREEN_CHANNEL, take: (id, now) => runNext(deps, id, now),
});

/**
 * Takes the collection's next turn if it is due and no other runner holds it; true when a turn's row
 * was written (a post, or the reason there is none).
 */
export async function runNext(deps: EvergreenDeps, id: number, now: Date): Promise<boolean> {
  const outcome = await withTransaction(deps.db, async (tx) => {
    const { rows } = await tx.query<CollectionRow>(
      `SELECT ${COLLECTION_COLUMNS} FROM evergreen_collections WHERE id = $1 AND status = 'active' AND materialize_at <= $2 FOR UPDATE SKIP LOCKED`,
      [id, now],
    );
    if (!rows[0]) return undefined;
    return rows[0].rule ? ruleTurn(tx, deps, rows[0], now) : queueTurn(tx, deps, rows[0], now);
  });
  if (outcome?.dueAt !== undefined) await notifyDue(deps.db, outcome.dueAt ?? undefined).catch(() => {});
  return outcome?.written ?? false;
}

interface Turned {
  written: boolean;
  /** The created post's targets are due at this time (null: now); undefined when nothing was queued. */
  dueAt?: Date | null;
}

/** A queue collection: the eligible item's post takes the next free slot; the next turn when that slot falls due. */
async function queueTurn(tx: Tx, deps: EvergreenDeps, row: CollectionRow, now: Date): Promise<Turned> {
  const item = await pickItem(tx, row, now);
  if (!item.ok) {
    await wait(tx, row, { reason: item.reason, until: item.until });
    return { written: false };
  }
  const created = await createItemPost(tx, deps, row, item.item, NEXT_FREE_SLOT, now);
  if (!created.ok && created.noSlot) {
    await wait(tx, row, { reason: created.reason, until: new Date(now.getTime() + NO_SLOT_RETRY_MS) });
    return { written: false };
  }
  const at = created.ok ? created.scheduledAt : now;
  await recordTurn(tx, row, item.item, at, created);
  await moveOn(tx, row, { index: 0, at: null, materializeAt: created.ok ? at : now, skipped: 0, turned: true });
  return { written: true, ...(created.ok ? { dueAt: created.dueAt } : {}) };
}

/** A rule collection: the occurrence to fill (late ones skipped), its eligible item's post at that time. */
async function ruleTurn(tx: Tx, deps: EvergreenDeps, row: CollectionRow, now: Date): Promise<Turned> {
  const schedule = scheduleOf(row as CollectionRow & { rule: NonNullable<CollectionRow['rule']>; start_at: Date });
  // A collection has no count and no end: there is always a next occurrence.
  const position = firstNotBefore(schedule, { index: row.next_index, at: row.next_at! }, new Date(now.getTime() - LATE_GRACE_MS));
  const at = position.at!;
  if (at.getTime() - now.getTime() > SCHEDULE_HORIZON_MS) {
    await moveOn(tx, row, { index: position.index, at, materializeAt: new Date(at.getTime() - SCHEDULE_HORIZON_MS), skipped: position.skipped, turned: false });
    return { written: false };
  }
  const following = occurrenceAfter(schedule, position.index, at)!;
  const next = { index: position.index + 1, at: following, materializeAt: new Date(Math.max(at.getTime(), following.getTime() - SCHEDULE_HORIZON_MS)) };
  const item = await pickItem(tx, row, at);
  if (!item.ok) {
    // This occurrence is passed over; the next one is looked at when this one falls due.
    await moveOn(tx, row, { ...next, skipped: position.skipped + 1, turned: false, waiting: item.reason });
    return { written: false };
  }
  const created = await createItemPost(tx, deps, row, item.item, at.toISOString(), now);
  await recordTurn(tx, row, item.item, at, created);
  await moveOn(tx, row, { ...next, skipped: position.skipped, turned: true });
  return { written: true, ...(created.ok ? { dueAt: created.dueAt } : {}) };
}

type Picked = { ok: true; item: ItemRow } | { ok: false; reason: string; until: Date | null };

/** The item used longest ago whose gap has passed at `at` (locked), or why there is none and when one will be. */
async function pickItem(tx: Tx, row: CollectionRow, at: Date): Promise<Picked> {
  const gapMs = row.min_gap_days * MS_PER_DAY;
  const { rows } = await tx.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM evergreen_items WHERE collection_id = $1 AND (last_used_at IS NULL OR last_used_at <= $2)
      ORDER BY last_used_at ASC NULLS FIRST, position LIMIT 1 FOR UPDATE`,
    [row.id, new Date(at.getTime() - gapMs)],
  );
  if (rows[0]) return { ok: true, item: rows[0] };
  const { rows: [oldest] } = await tx.query<{ at: Date | null }>('SELECT min(last_used_at) AS at FROM evergreen_items WHERE collection_id = $1', [row.id]);
  if (!oldest!.at) return { ok: false, reason: 'the collection has no items: add one with POST /v1/evergreen-collections/{id}/items', until: null };
  const eligibleAt = new Date(oldest!.at.getTime() + gapMs);
  return {
    ok: false,
    reason: `every item was used less than ${row.min_gap_days} days (minGapDays) before ${at.toISOString()}; the first becomes eligible at ${eligibleAt.toISOString()}`,
    until: eligibleAt,
  };
}

type Created = ({ ok: true; postId: number; scheduledAt: Date; variation: number; dueAt: Date | null | undefined }) | { ok: false; reason: string; noSlot: boolean };

/** The item's post, through the create path inside this transaction, judged as a POST /v1/posts would be now. */
async function createItemPost(tx: Tx, deps: EvergreenDeps, row: CollectionRow, item: ItemRow, scheduledAt: string, now: Date): Promise<Created> {
  const variation = item.times_used % (1 + item.variations.length);
  const content = variation === 0 ? item.post : { ...withoutContent(item.post), ...item.variations[variation - 1] };
  const created = await createPostInTransaction(tx, row.org_id, { ...content, accounts: row.accounts, scheduledAt }, now, deps.fetch);
  if (!created.ok) return { ok: false, reason: created.reason, noSlot: created.error !== undefined && isSlotRefusal(created.error) };
  return { ...created, scheduledAt: created.scheduledAt!, variation };
}

/** The slot, not the item, was refused: no queue for an account, no free slot within the window. */
function isSlotRefusal({ code, details }: RequestError): boolean {
  return code === 'account_without_queue' || (details ?? []).some((d) => d.field === 'scheduledAt' && d.message.startsWith(`"${NEXT_FREE_SLOT}"`));
}

async function recordTurn(tx: Tx, row: CollectionRow, item: ItemRow, at: Date, created: Created): Promise<void> {
  await tx.query(
    `INSERT INTO evergreen_posts (collection_id, run, org_id, item_id, scheduled_at, variation, post_id, refused)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, row.runs, row.org_id, item.id, at, created.ok ? created.variation : null, created.ok ? created.postId : null, created.ok ? null : created.reason],
  );
  await tx.query('UPDATE evergreen_items SET last_used_at = $2, times_used = times_used + $3 WHERE id = $1', [item.id, at, created.ok ? 1 : 0]);
}

async function moveOn(
  tx: Tx, row: CollectionRow, next: { index: number; at: Date | null; materializeAt: Date | null; skipped: number; turned: boolean; waiting?: string },
): Promise<void> {
  await tx.query(
    `UPDATE evergreen_collections SET next_index = $2, next_at = $3, materialize_at = $4, skipped = skipped + $5, waiting = $6,
            runs = runs + $7, updated_at = now()
      WHERE id = $1`,
    [row.id, next.index, next.at, next.materializeAt, next.skipped, next.waiting ?? null, next.turned ? 1 : 0],
  );
}

/** No turn now: the reason, and when to look again (null: when an item is added). */
async function wait(tx: Tx, row: CollectionRow, why: { reason: string; until: Date | null }): Promise<void> {
  await tx.query('UPDATE evergreen_collections SET waiting = $2, materialize_at = $3, updated_at = now() WHERE id = $1', [row.id, why.reason, why.until]);
}
