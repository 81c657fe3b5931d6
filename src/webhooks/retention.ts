// The outbox and the delivery log do not grow forever: an event older than the retention whose
// deliveries are all finished is deleted, and its deliveries and attempts with it (FK cascade).
// An event with a delivery still pending is kept, however old: at-least-once comes first.
import type { Db } from '../db/pool.ts';

const BATCH = 5_000;

/** Deletes expired events in batches (short transactions, no long lock); returns how many. */
export async function purgeExpiredEvents(db: Db, retentionDays: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM events WHERE id IN (
         SELECT e.id FROM events e
          WHERE e.created_at < now() - make_interval(days => $1)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
          LIMIT ${BATCH})`,
      [retentionDays],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return total;
  }
}
