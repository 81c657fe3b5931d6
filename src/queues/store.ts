// Every SQL statement of the queues: the queue rows (migration 030), and what the posts say about
// their slots (which are held, how much of each account's quota a window has used).
import type { Queryable, Tx } from '../db/pool.ts';

export interface QueueRow {
  id: number;
  org_id: number;
  account_id: number;
  time_zone: string;
  slots: number[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id::int, org_id::int, account_id::int, time_zone, slots, created_at, updated_at';

/** Whether the account is one of the organization's. */
export async function orgAccountExists(db: Queryable, orgId: number, accountId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM social_accounts WHERE id = $1 AND org_id = $2', [accountId, orgId]);
  return rows.length > 0;
}

/** The new queue, or undefined when the account has one already (its unique key). */
export async function insertQueue(db: Queryable, orgId: number, accountId: number, zone: string, slots: number[]): Promise<QueueRow | undefined> {
  const { rows } = await db.query<QueueRow>(
    `INSERT INTO queues (org_id, account_id, time_zone, slots) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id) DO NOTHING RETURNING ${COLUMNS}`,
    [orgId, accountId, zone, slots],
  );
  return rows[0];
}

export async function selectQueues(db: Queryable, orgId: number, accountId: number | undefined, limit: number, offset: number): Promise<{ rows: QueueRow[]; total: number }> {
  const { rows } = await db.query<QueueRow & { total: number }>(
    `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM queues
      WHERE org_id = $1 AND ($2::bigint IS NULL OR account_id = $2) ORDER BY id LIMIT $3 OFFSET $4`,
    [orgId, accountId ?? null, limit, offset],
  );
  if (rows.length || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
  // A page past the end still says how many there are.
  const counted = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM queues WHERE org_id = $1 AND ($2::bigint IS NULL OR account_id = $2)', [orgId, accountId ?? null]);
  return { rows, total: counted.rows[0]!.total };
}

export async function selectQueue(db: Queryable, orgId: number, id: number): Promise<QueueRow | undefined> {
  const { rows } = await db.query<QueueRow>(`SELECT ${COLUMNS} FROM queues WHERE id = $1 AND org_id = $2`, [id, orgId]);
  return rows[0];
}

/** Replaces the zone and/or the slots (null: kept). */
export async function updateQueueRow(db: Queryable, orgId: number, id: number, zone: string | null, slots: number[] | null): Promise<QueueRow | undefined> {
  const { rows } = await db.query<QueueRow>(
    `UPDATE queues SET time_zone = coalesce($3, time_zone), slots = coalesce($4, slots), updated_at = now()
      WHERE id = $1 AND org_id = $2 RETURNING ${COLUMNS}`,
    [id, orgId, zone, slots],
  );
  return rows[0];
}

export async function deleteQueueRow(db: Queryable, orgId: number, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM queues WHERE id = $1 AND org_id = $2', [id, orgId]);
  return (rowCount ?? 0) > 0;
}

export async function queuesOfAccounts(db: Queryable, orgId: number, accountIds: number[]): Promise<QueueRow[]> {
  const { rows } = await db.query<QueueRow>(`SELECT ${COLUMNS} FROM queues WHERE org_id = $1 AND account_id = ANY($2::bigint[])`, [orgId, accountIds]);
  return rows;
}

/**
 * Serializes slot taking per account until the transaction ends. An advisory lock rather than a
 * unique index on (account, time): posts with a time of their own may share a minute with a slot or
 * with each other, so the index would refuse what is allowed; and the lock lets a batch of creates
 * take several slots of the same account in one transaction, each after the others. Taken in
 * ascending id order, in one statement, by every slot taker: two batches cannot deadlock. The
 * namespace (first key) is this feature's own; an id past 2^31 shares a lock with another, which only
 * serializes more. A post given a time of its own (a create or a PATCH with a date-time) takes no lock:
 * it may stand at a slot's time as any two posts may share a time, and the slot is then held.
 */
export async function lockAccountSlots(tx: Tx, accountIds: number[]): Promise<void> {
  const sorted = [...new Set(accountIds)].sort((a, b) => a - b);
  await tx.query('SELECT pg_advisory_xact_lock(1903519059, (a % 2147483647)::int) FROM unnest($1::bigint[]) WITH ORDINALITY AS u(a, n) ORDER BY n', [sorted]);
}

export interface HeldSlot {
  accountId: number;
  postId: number;
  at: Date;
}

/**
 * The posts of these accounts that hold a time in (from, until]: not cancelled, not published yet
 * (on this account or as a post), drafts included (a draft put in a slot keeps it).
 */
export async function heldSlots(db: Queryable, orgId: number, accountIds: number[], from: Date, until: Date): Promise<HeldSlot[]> {
  const { rows } = await db.query<{ account_id: number; post_id: number; scheduled_at: Date }>(
    `SELECT t.account_id::int, p.id::int AS post_id, p.scheduled_at
       FROM posts p JOIN targets t ON t.post_id = p.id
      WHERE p.org_id = $1 AND p.scheduled_at > $3 AND p.scheduled_at <= $4
        AND p.cancelled_at IS NULL AND p.published_at IS NULL
        AND t.account_id = ANY($2::bigint[]) AND t.status NOT IN ('published', 'cancelled', 'deleted')
      ORDER BY p.scheduled_at, p.id`,
    [orgId, accountIds, from, until],
  );
  return rows.map((r) => ({ accountId: r.account_id, postId: r.post_id, at: r.scheduled_at }));
}

export interface QuotaUse {
  accountId: number;
  at: Date;
  containers: number;
}

/**
 * What each account publishes, or will, in (from, until]: its published destinations at their
 * publishing time, its queued ones at their post's time (now for a post without one). Drafts,
 * cancelled and failed destinations use no quota.
 */
export async function quotaUses(db: Queryable, orgId: number, accountIds: number[], from: Date, until: Date): Promise<QuotaUse[]> {
  const { rows } = await db.query<{ account_id: number; at: Date; containers: number }>(
    `SELECT t.account_id::int, u.at, (SELECT count(*)::int FROM containers c WHERE c.post_id = p.id) AS containers
       FROM targets t JOIN posts p ON p.id = t.post_id
       CROSS JOIN LATERAL (SELECT coalesce(t.published_at, p.scheduled_at, p.created_at) AS at) u
      WHERE t.org_id = $1 AND t.account_id = ANY($2::bigint[]) AND u.at > $3 AND u.at <= $4
        AND NOT p.is_draft AND p.cancelled_at IS NULL AND t.status NOT IN ('cancelled', 'failed')`,
    [orgId, accountIds, from, until],
  );
  return rows.map((r) => ({ accountId: r.account_id, at: r.at, containers: r.containers }));
}
