// The stored deliveries as a queue: claimed with a lease (a worker killed mid-way loses its lease and
// another takes the delivery again), finished in the transaction of their last change, retried with
// a growing wait when processing fails. A delivery is never dropped: it waits at most MAX_WAIT_MS.
import type { Db, Queryable } from '../db/pool.ts';
import type { InboundRequest } from '../networks/capabilities.ts';
import type { NetworkId } from '../core/network-id.ts';

/** How long a claim holds a delivery before another worker may take it. */
export const LEASE_MS = 30_000;
const FIRST_WAIT_MS = 1_000;
const MAX_WAIT_MS = 15 * 60_000;

export interface ClaimedDelivery {
  id: number;
  network: NetworkId;
  accountIds: number[];
  attempts: number;
  request: InboundRequest;
}

interface DeliveryRow {
  id: number;
  network: NetworkId;
  account_ids: number[];
  attempts: number;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: Buffer;
}

export async function claimDeliveries(db: Queryable, limit: number, leaseMs = LEASE_MS): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<DeliveryRow>(
    `UPDATE inbound_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2::float8 / 1000)
      WHERE d.id IN (SELECT id FROM inbound_deliveries WHERE processed_at IS NULL AND next_attempt_at <= now()
                      ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.network, d.account_ids, d.attempts, d.headers, d.query, d.body`,
    [limit, leaseMs],
  );
  return rows.sort((a, b) => a.id - b.id).map((row) => ({
    id: row.id,
    network: row.network,
    accountIds: row.account_ids.map(Number),
    attempts: row.attempts,
    request: { method: 'POST', headers: row.headers, query: row.query, rawBody: row.body },
  }));
}

export async function markProcessed(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE inbound_deliveries SET processed_at = now(), last_error = NULL WHERE id = $1', [id]);
}

/** Processing failed: tried again after a wait that doubles with each attempt (1 s … 15 min). */
export async function markFailed(db: Queryable, id: number, attempts: number, error: string): Promise<void> {
  const waitMs = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, attempts - 1));
  await db.query(
    `UPDATE inbound_deliveries SET last_error = $3, next_attempt_at = now() + make_interval(secs => $2::float8 / 1000) WHERE id = $1 AND processed_at IS NULL`,
    [id, waitMs, error.slice(0, 2000)],
  );
}

/** Milliseconds until the next delivery is due (0: now), undefined when none waits. */
/** Milliseconds until an unprocessed delivery is due (0: now); undefined when none waits. */
export async function msUntilNextDue(db: Db): Promise<number | undefined> {
  // Not greatest(0, …) in SQL: greatest ignores a NULL, so "nothing waits" came back as "due now" and
  // an idle processor looked every 10 ms.
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT (extract(epoch FROM (min(next_attempt_at) - now())) * 1000)::float8 AS ms FROM inbound_deliveries WHERE processed_at IS NULL`,
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.max(0, ms);
}

/** Processed deliveries are kept this long (to look into), dedupe keys longer than Meta redelivers (36 h). */
export const KEEP_PROCESSED_DAYS = 7;
export const KEEP_SEEN_DAYS = 30;

/** Removes processed deliveries and old dedupe keys; the number of rows removed. */
export async function purgeInbound(db: Queryable): Promise<number> {
  const deliveries = await db.query(`DELETE FROM inbound_deliveries WHERE processed_at < now() - make_interval(days => $1)`, [KEEP_PROCESSED_DAYS]);
  const seen = await db.query(`DELETE FROM inbound_seen WHERE seen_at < now() - make_interval(days => $1)`, [KEEP_SEEN_DAYS]);
  return (deliveries.rowCount ?? 0) + (seen.rowCount ?? 0);
}
