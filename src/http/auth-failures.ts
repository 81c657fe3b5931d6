// Requests with an invalid API key, counted per client address: past CRIER_AUTH_FAILURE_LIMIT in a
// window (30 a minute by default: a developer mistyping a key never gets there, a guesser does at
// once), the address is answered 429 with Retry-After until the window ends, before its keys are
// even looked up. Counters are shared through Redis like the request limits; the block itself is
// remembered in each process, so a successful request costs no counter call at all.
//
// A blocked address may be a NAT or a proxy shared with the guesser. A key that authenticated
// recently in this process still gets in from there (cheap: a digest and a map lookup), so the
// clients already at work are not shut out by someone else's failures; a key not seen lately is
// refused until the window ends, since telling it apart from a guess would take the lookup the
// block exists to save. Behind a reverse proxy, CRIER_TRUST_PROXY makes the address the client's.
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { CounterStore } from '../limits/request-hook.ts';

/** Keys that authenticated lately, remembered per process (digests only, oldest forgotten first). */
const RECENT_KEYS_MAX = 10_000;

export interface AuthFailureGuard {
  /** Seconds before `address` may present the key of this hash (hashApiKey) again; 0 when it may now. */
  blockedFor(address: string, keyHash: Buffer): number;
  /** Counts an invalid key from `address`; the seconds it is now blocked for, or 0. */
  recordFailure(address: string): Promise<number>;
  /** The key of this hash (hashApiKey) authenticated. */
  recordSuccess(keyHash: Buffer): void;
}

export function createAuthFailureGuard(counters: CounterStore, settings: Config['authFailures']): AuthFailureGuard {
  const failures = counters.limiter('auth-failures', settings.limit, settings.windowSeconds);
  const blockedUntil = new Map<string, number>();
  const recentKeys = new Map<string, true>();
  const digest = (keyHash: Buffer) => keyHash.toString('base64');

  const block = (address: string, ms: number): number => {
    for (const [other, until] of blockedUntil) if (until <= Date.now()) blockedUntil.delete(other);
    blockedUntil.set(address, Date.now() + ms);
    return Math.max(1, Math.ceil(ms / 1000));
  };

  return {
    blockedFor(address, keyHash) {
      const until = blockedUntil.get(address);
      if (until === undefined || recentKeys.has(digest(keyHash))) return 0;
      return until > Date.now() ? Math.ceil((until - Date.now()) / 1000) : 0;
    },
    async recordFailure(address) {
      try {
        await failures.consume(address);
        return 0;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return block(address, refusal.msBeforeNext);
        throw refusal;
      }
    },
    recordSuccess(keyHash) {
      const id = digest(keyHash);
      recentKeys.delete(id); // re-inserted as the newest
      recentKeys.set(id, true);
      if (recentKeys.size > RECENT_KEYS_MAX) recentKeys.delete(recentKeys.keys().next().value!);
    },
  };
}
