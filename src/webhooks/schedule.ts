// The delivery schedule of docs/design.md §8 and the spec (Events › Delivery): each attempt times out after
// 30 s; a failed attempt is retried up to 5 times, waiting 10 s, then three times longer each time,
// never more than 5 min: 10 s, 30 s, 90 s, 270 s, 300 s (~11.7 min from first to last attempt).
// `timeScale` (CRIER_WEBHOOK_TIME_SCALE, tests and benches only) shrinks every one of these times, the
// attempt timeout to no less than ATTEMPT_TIMEOUT_FLOOR_MS.

export const MAX_ATTEMPTS = 6;
export const ATTEMPT_TIMEOUT_MS = 30_000;
/**
 * A shrunk attempt timeout still gives a receiver on a loaded machine time to answer: at the tests'
 * scale (0.01) it was 300 ms, and a receiver's 500 that took longer to arrive, with five test files at
 * once on two cores, was recorded as a timeout (test/webhooks/failures.test.ts).
 */
const ATTEMPT_TIMEOUT_FLOOR_MS = 1_000;
export const FIRST_RETRY_DELAY_MS = 10_000;
export const MAX_RETRY_DELAY_MS = 300_000;
const GROWTH = 3;
/** Retries of many deliveries that failed together (a receiver outage) should not return together. */
const JITTER = 0.1;
/**
 * A claimed delivery comes back by itself this long after its attempt's deadline: the grace covers
 * recording the result under load. Not scaled: an event loop stalled by a slow machine must not
 * make a live attempt look dead and be sent twice.
 */
const LEASE_GRACE_MS = 5_000;

export interface Schedule {
  timeoutMs: number;
  leaseMs: number;
  /** Delay before the attempt that follows failed attempt `attempt` (1-based). */
  retryDelayMs(attempt: number, random?: number): number;
}

export function createSchedule(timeScale = 1): Schedule {
  const timeoutMs = Math.max(ATTEMPT_TIMEOUT_FLOOR_MS, Math.round(ATTEMPT_TIMEOUT_MS * timeScale));
  return {
    timeoutMs,
    leaseMs: timeoutMs + LEASE_GRACE_MS,
    retryDelayMs(attempt, random = Math.random()) {
      const base = FIRST_RETRY_DELAY_MS * GROWTH ** (attempt - 1);
      const delay = Math.min(MAX_RETRY_DELAY_MS, base * (1 + JITTER * random));
      return Math.round(delay * timeScale);
    },
  };
}
