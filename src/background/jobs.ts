// Job tables (imports, bulk_imports): rows with a status ('queued', 'running', then done), a lease
// (`lease_until`) and a fencing token (`runner`). The one claim and the one "when is the next job
// due" of every such table, for a loop (loop.ts) to run: a queued job, or a running one whose
// worker stopped renewing its lease, oldest first.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/pool.ts';

/** A job table's name: a constant of the code that owns the table, never input. */
function tableName(table: string): string {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`not a job table name: ${table}`);
  return table;
}

/** Until a queued job (now) or a running one whose lease lapses; undefined when there is none. */
export async function msUntilNextJob(db: Db, table: string): Promise<number | undefined> {
  // Not GREATEST(0, …) in SQL: it ignores a NULL, so "no job" would read as "due now" and an idle
  // worker would look every 25 ms (test/engagement/import-idle.test.ts).
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT (EXTRACT(EPOCH FROM min(CASE WHEN status = 'queued' THEN now() ELSE lease_until END) - now()) * 1000)::float8 AS ms
       FROM ${tableName(table)} WHERE status IN ('queued', 'running')`,
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.max(0, ms);
}

/** The oldest runnable job, now held by this run (a fresh `runner` fences out a worker that lost it). */
export async function claimJob<Row>(db: Db, table: string, leaseMs: number): Promise<Row | undefined> {
  const name = tableName(table);
  const { rows } = await db.query(
    `UPDATE ${name} SET status = 'running', runner = $1, lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
      WHERE id = (SELECT id FROM ${name}
                   WHERE status = 'queued' OR (status = 'running' AND lease_until < now())
                   ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [randomUUID(), leaseMs],
  );
  return rows[0] as Row | undefined;
}
