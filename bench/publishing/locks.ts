// Where PostgreSQL's backends wait on locks while the scale figure runs: pg_stat_activity sampled every
// 20 ms, each waiting backend counted with its wait event and its statement (normalized). A statement
// that serializes the work (a hot row, a global lock) shows up here with a large share.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../src/db/pool.ts';

export interface LockWait {
  /** wait_event_type:wait_event, e.g. Lock:transactionid, LWLock:WALWrite. */
  wait: string;
  statement: string;
  samples: number;
  /** Of all samples taken: how often at least one backend waited like this. */
  share: number;
}

const INTERVAL_MS = 20;

export interface LockWaits {
  samples: number;
  /** Every wait seen, most frequent first. */
  top: LockWait[];
  /** Of all samples: how often at least one backend waited on a heavyweight lock (Lock:*: a row, a relation, a transaction). */
  heavyweightShare: number;
}

export function startLockSampler(db: Db): { stop(): Promise<LockWaits> } {
  let stopped = false;
  let samples = 0;
  let heavyweightSamples = 0;
  const seen = new Map<string, { wait: string; statement: string; samples: number }>();
  const done = (async () => {
    while (!stopped) {
      const { rows } = await db.query<{ wait: string; statement: string }>(
        `SELECT DISTINCT wait_event_type || ':' || wait_event AS wait,
                left(regexp_replace(regexp_replace(query, '\\s+', ' ', 'g'), '\\$[0-9]+|''[^'']*''|[0-9]+', '?', 'g'), 120) AS statement
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
            AND wait_event_type IN ('Lock', 'LWLock')`,
      );
      samples++;
      if (rows.some((r) => r.wait.startsWith('Lock:'))) heavyweightSamples++;
      for (const r of rows) {
        const key = `${r.wait} ${r.statement}`;
        const entry = seen.get(key) ?? { ...r, samples: 0 };
        entry.samples++;
        seen.set(key, entry);
      }
      await sleep(INTERVAL_MS);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      const top = [...seen.values()].sort((a, b) => b.samples - a.samples).map((w) => ({ ...w, share: w.samples / Math.max(1, samples) }));
      return { samples, top, heavyweightShare: heavyweightSamples / Math.max(1, samples) };
    },
  };
}
