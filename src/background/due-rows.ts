// The loop of a runner whose work is rows of a table falling due at `materialize_at` while `status`
// is 'active' (the recurrences' and the evergreen collections' runners): claim the due ids, take each
// one's turn, sleep until the next is due or a NOTIFY wakes it; a turn that fails unexpectedly is
// tried again a minute later (a row that keeps failing never blocks the others).
import type { Logger } from 'pino';
import { encodeId } from '../core/ids.ts';
import type { Db } from '../db/pool.ts';
import { startLoop } from './loop.ts';

/** How long a row whose turn failed unexpectedly waits before the next try. */
const RETRY_AFTER_FAILURE_MS = 60_000;

export interface DueRows {
  /** The table (one of the runners' own: never user input). */
  table: 'recurrences' | 'evergreen_collections';
  label: string;
  channel: string;
  /** Takes the row's turn at `now`; true when it wrote one. */
  take(id: number, now: Date): Promise<boolean>;
}

export interface DueRowsRunner { stop(): Promise<void> }

export function startDueRowsRunner(db: Db, logger: Logger, rows: DueRows, options: { now?: () => Date; pollMs?: number } = {}): DueRowsRunner {
  const now = options.now ?? (() => new Date());
  const loop = startLoop<number>(db, logger, {
    label: rows.label,
    channel: rows.channel,
    claim: (limit) => dueIds(db, rows.table, now(), limit),
    msUntilNextDue: async () => {
      const { rows: [next] } = await db.query<{ at: Date | null }>(`SELECT min(materialize_at) AS at FROM ${rows.table} WHERE status = 'active'`);
      return next!.at === null ? undefined : Math.max(0, next!.at.getTime() - now().getTime());
    },
    run: (id) => takeOrPostpone(db, logger, rows, id, now()),
  }, { concurrency: 1, claimAhead: 20, ...(options.pollMs ? { pollMs: options.pollMs } : {}) });
  return { stop: () => loop.stop() };
}

/** One pass over every row due at `now` (what the runner does; tests call it with their clock); answers the turns written. */
export async function takeDue(db: Db, rows: Pick<DueRows, 'table' | 'take'>, now: Date): Promise<number> {
  let written = 0;
  for (const id of await dueIds(db, rows.table, now, 1000)) {
    if (await rows.take(id, now)) written += 1;
  }
  return written;
}

async function dueIds(db: Db, table: DueRows['table'], now: Date, limit: number): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM ${table} WHERE status = 'active' AND materialize_at <= $1 ORDER BY materialize_at LIMIT $2`, [now, limit],
  );
  return rows.map((row) => Number(row.id));
}

async function takeOrPostpone(db: Db, logger: Logger, rows: DueRows, id: number, now: Date): Promise<void> {
  try {
    await rows.take(id, now);
  } catch (error) {
    logger.warn({ err: error, table: rows.table, id: encodeId(id) }, `${rows.label}: a turn failed; trying again in a minute`);
    await db.query(`UPDATE ${rows.table} SET materialize_at = $2 WHERE id = $1`, [id, new Date(now.getTime() + RETRY_AFTER_FAILURE_MS)]);
  }
}
