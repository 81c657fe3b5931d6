// Waking the workers when an API process creates or reschedules a post due now or within the next
// second (later ones are found by the workers' own timers: they look at the next due time at least
// every WORKER_MAX_SLEEP_MS). The notification is sent after the commit, from outside the creating
// transaction, at most once per WINDOW_MS per process: NOTIFY serializes the commits of the
// transactions that send it (measured: 20 connections committing single-row inserts went from
// 11,500-12,700 to 5,700 a second when each also notified), so it stays off the create path; and
// under a stream of creates, one wake-up per window lets a worker claim the window's posts together.
import type { Db } from '../db/pool.ts';
import { notifyDue, WORKER_MAX_SLEEP_MS } from './queue.ts';

export interface PublishWaker {
  /** Targets were made due at `at` (now when null). Call after the transaction committed. */
  wake(at: Date | null): void;
  /** Sends what is pending and stops. */
  close(): Promise<void>;
}

const WINDOW_MS = 50;

export function createPublishWaker(db: Db): PublishWaker {
  let earliest = Number.POSITIVE_INFINITY;
  let lastSentAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;

  const send = () => {
    timer = undefined;
    const at = earliest;
    earliest = Number.POSITIVE_INFINITY;
    lastSentAt = Date.now();
    // A lost notification costs at most a worker's sleep (WORKER_MAX_SLEEP_MS): not worth an error.
    sending = notifyDue(db, at > Date.now() ? new Date(at) : undefined)
      .catch(() => {})
      .finally(() => {
        sending = undefined;
        schedule();
      });
  };
  const schedule = () => {
    if (timer || sending || earliest === Number.POSITIVE_INFINITY) return;
    timer = setTimeout(send, Math.max(0, lastSentAt + WINDOW_MS - Date.now()));
  };

  return {
    wake(at) {
      const due = at ? at.getTime() : Date.now();
      if (due - Date.now() > WORKER_MAX_SLEEP_MS) return;
      earliest = Math.min(earliest, due);
      schedule();
    },
    async close() {
      if (timer) {
        clearTimeout(timer);
        send();
      }
      await sending;
    },
  };
}
