// The recurrence runner: creates each occurrence of each active recurrence as an ordinary post,
// exactly once, in the loop of every background queue (background/loop.ts).
//
// Policy: one occurrence ahead. The first occurrence is created at once, each next one when the one
// before it falls due, and none more than the 30-day scheduling window before its time (a rule
// `every: {days: 60}` waits until then). So a recurrence has at most one future post at a time, which
// can be seen, approved or cancelled like any post, and an hourly rule never floods the queue.
//
// Exactly once: a pass locks the recurrence row (FOR UPDATE SKIP LOCKED, re-checking that it is still
// due), creates the post through the create path (posts/create.ts writeCreates: validation, account
// resolution, approval), writes the occurrence row — primary key (recurrence, index) — and moves the
// recurrence on, all in one transaction. A crash rolls all of it back; a second runner skips the
// locked row, or finds it moved on once the first commits.
//
// An occurrence the runner reaches more than LATE_GRACE_MS after its time (the recurrence was paused,
// or no worker ran) is skipped and counted, never published late. An occurrence the create path
// refuses (the accounts are gone, a rule of a network refuses the content), or one falling while the
// organization's subscription is not active (the API's gate), is recorded with the reason and no
// post. Which content an occurrence takes: the body's own and then each variation in
// order, cycling, counted over the posts created (networks that refuse repeated text, X and LinkedIn,
// get a different text each time while there are variations; without, their refusal fails the
// occurrence's destination with the network's own reason).
import type { Logger } from 'pino';
import { startDueRowsRunner, takeDue, type DueRows } from '../background/due-rows.ts';
import { withTransaction, type Db, type Tx } from '../db/pool.ts';
import { createPostInTransaction, type RunnerCreated } from '../posts/runner-create.ts';
import { SCHEDULE_HORIZON_MS } from '../posts/validate.ts';
import { notifyDue } from '../publishing/queue.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { tokenOfPublicUrl } from '../media/context.ts';
import type { Config } from '../config.ts';
import { firstNotBefore, occurrenceAfter } from './rule.ts';
import { RECURRENCES_CHANNEL, scheduleOf, type RecurrenceRow } from './store.ts';
import { withoutContent } from './validate.ts';

export const LATE_GRACE_MS = 60 * 60_000;

export interface RecurrenceDeps {
  db: Db;
  logger: Logger;
  /** How the occurrences' media URLs are judged, as POST /v1/posts judges them. */
  fetch: FetchPolicy;
  /** The clock (tests step it). */
  now?: () => Date;
}

export interface RecurrenceRunner { stop(): Promise<void> }

/** Media URLs judged as POST /v1/posts judges them: the loopback switch, and the installation's own media. */
export function occurrenceFetchPolicy(config: Pick<Config, 'allowLoopbackFetch' | 'publicBaseUrl'>): FetchPolicy {
  return { allowLoopback: config.allowLoopbackFetch, isOwnMedia: (url) => tokenOfPublicUrl(config.publicBaseUrl, url) !== undefined };
}

export function startRecurrenceRunner(deps: RecurrenceDeps, options: { pollMs?: number } = {}): RecurrenceRunner {
  return startDueRowsRunner(deps.db, deps.logger, dueRowsOf(deps), { ...options, ...(deps.now ? { now: deps.now } : {}) });
}

/** One pass over every recurrence due at `now` (what the runner does; tests call it with their clock). */
export function materializeDue(deps: RecurrenceDeps, now: Date): Promise<number> {
  return takeDue(deps.db, dueRowsOf(deps), now);
}

const dueRowsOf = (deps: RecurrenceDeps): DueRows => ({
  table: 'recurrences', label: 'recurrence runner', channel: RECURRENCES_CHANNEL, take: (id, now) => materializeNext(deps, id, now),
});

/**
 * Creates the recurrence's next occurrence if it is due and no other runner holds it; true when an
 * occurrence row was written (a post, or the reason there is none).
 */
export async function materializeNext(deps: RecurrenceDeps, id: number, now: Date): Promise<boolean> {
  const outcome = await withTransaction(deps.db, async (tx) => {
    const { rows } = await tx.query<RecurrenceRow>(
      "SELECT * FROM recurrences WHERE id = $1 AND status = 'active' AND materialize_at <= $2 FOR UPDATE SKIP LOCKED",
      [id, now],
    );
    return rows[0] ? advance(tx, deps, rows[0], now) : undefined;
  });
  if (outcome?.dueAt !== undefined) await notifyDue(deps.db, outcome.dueAt ?? undefined).catch(() => {});
  return outcome?.written ?? false;
}

interface Advanced {
  written: boolean;
  /** The created post's targets are due at this time (null: now); undefined when nothing was queued. */
  dueAt?: Date | null;
}

async function advance(tx: Tx, deps: RecurrenceDeps, row: RecurrenceRow, now: Date): Promise<Advanced> {
  const schedule = scheduleOf(row);
  const position = firstNotBefore(schedule, { index: row.next_index, at: row.next_at! }, new Date(now.getTime() - LATE_GRACE_MS));
  if (!position.at) {
    await moveOn(tx, row, { index: position.index, at: null, materializeAt: null, skipped: position.skipped, created: 0 });
    return { written: false };
  }
  const at = position.at;
  if (at.getTime() - now.getTime() > SCHEDULE_HORIZON_MS) {
    const materializeAt = new Date(at.getTime() - SCHEDULE_HORIZON_MS);
    await moveOn(tx, row, { index: position.index, at, materializeAt, skipped: position.skipped, created: 0 });
    return { written: false };
  }
  const variation = row.created_posts % (1 + row.variations.length);
  const created = await createOccurrencePost(tx, deps, row, at, variation, now);
  await tx.query(
    `INSERT INTO recurrence_occurrences (recurrence_id, occurrence_index, org_id, scheduled_at, variation, post_id, refused)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, position.index, row.org_id, at, created.ok ? variation : null, created.ok ? created.postId : null, created.ok ? null : created.reason],
  );
  const following = occurrenceAfter(schedule, position.index, at);
  const materializeAt = following ? new Date(Math.max(at.getTime(), following.getTime() - SCHEDULE_HORIZON_MS)) : null;
  await moveOn(tx, row, { index: position.index + 1, at: following ?? null, materializeAt, skipped: position.skipped, created: created.ok ? 1 : 0 });
  return { written: true, ...(created.ok ? { dueAt: created.dueAt } : {}) };
}

async function moveOn(
  tx: Tx, row: RecurrenceRow, next: { index: number; at: Date | null; materializeAt: Date | null; skipped: number; created: number },
): Promise<void> {
  await tx.query(
    `UPDATE recurrences SET next_index = $2, next_at = $3, materialize_at = $4, skipped = skipped + $5, created_posts = created_posts + $6,
            status = CASE WHEN $3::timestamptz IS NULL THEN 'completed' ELSE status END, updated_at = now()
      WHERE id = $1`,
    [row.id, next.index, next.at, next.materializeAt, next.skipped, next.created],
  );
}

/** The occurrence's post, through the create path inside this transaction, judged as a POST /v1/posts would be now. */
function createOccurrencePost(tx: Tx, deps: RecurrenceDeps, row: RecurrenceRow, at: Date, variation: number, now: Date): Promise<RunnerCreated> {
  const content = variation === 0 ? row.post : { ...withoutContent(row.post), ...row.variations[variation - 1] };
  return createPostInTransaction(tx, row.org_id, { ...content, scheduledAt: at.toISOString() }, now, deps.fetch);
}
