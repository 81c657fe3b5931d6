// How many requests per window an organization's keys may make. The spec promises a limit "scaled
// with post traffic and connected account count": an org that publishes more, for more accounts,
// legitimately polls and posts more, so it gets more room, between an operator-set floor and ceiling.
//
//   limit = clamp(floor + 5 * accounts + round(4 * sqrt(posts created in the last 24 h)), floor, ceiling)
//
// - floor (default 600 per 60 s window, i.e. 10 req/s): a self-hosted server belongs to its
//   operator, so even an empty org (a developer's first script, a backfill, a dashboard polling
//   several accounts) gets room to work; the operator lowers it when strangers share the instance.
// - 5 per connected, active account: each account typically costs a few calls a minute (list its
//   posts, create, poll the result), and accounts are what customers pay for, so this part is linear.
// - 4 * sqrt(posts in 24 h): traffic is bursty and grows the need for polling, but sub-linearly,
//   and a square root keeps a burst of posting from inflating its own limit (a feedback loop) while
//   still rewarding real volume: 100 posts/day -> +40, 2,500 -> +200, 10,000 -> +400.
// - ceiling (default 3,000 per window, 50 req/s): what one org may take from the instance, well
//   within what one API process serves (see the README's benchmarks) and far enough above the floor
//   that the formula matters; an operator raises it, or sets a per-key override (api_keys.rate_limit),
//   for a heavy customer.
//
// Examples with the defaults: new org 600; 10 accounts + 100 posts/day 690; 100 accounts + 2,500
// posts/day 1,300; 480 accounts with any traffic reaches the ceiling.
import type { Queryable } from '../db/pool.ts';

export const PER_ACCOUNT = 5;
export const PER_SQRT_DAILY_POST = 4;

export interface LimitBounds {
  floor: number;
  ceiling: number;
}

export interface OrgTraffic {
  /** Connected accounts that can publish. */
  accounts: number;
  /** Posts created in the last 24 hours. */
  posts24h: number;
}

export function windowLimit(traffic: OrgTraffic, bounds: LimitBounds): number {
  const raw = bounds.floor + PER_ACCOUNT * traffic.accounts + Math.round(PER_SQRT_DAILY_POST * Math.sqrt(traffic.posts24h));
  return Math.min(bounds.ceiling, Math.max(bounds.floor, raw));
}

/**
 * The organization's traffic. Accounts are counted only as far as they can still raise the limit
 * (past the ceiling more rows change nothing); posts of the last 24 hours come from the list's
 * counters (migration 012), which cost the same for a busy org as for a quiet one.
 */
export async function orgTraffic(db: Queryable, orgId: number, bounds: LimitBounds): Promise<OrgTraffic> {
  const room = bounds.ceiling - bounds.floor;
  const accountCap = Math.min(Math.ceil(room / PER_ACCOUNT) + 1, 1_000_000);
  const { rows } = await db.query<OrgTraffic>(
    `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM social_accounts WHERE org_id = $1 AND is_active LIMIT $2) a) AS accounts,
            post_counts_total($1, '', 'c', now() - interval '24 hours', NULL, NULL, NULL)::int AS "posts24h"`,
    [orgId, accountCap],
  );
  return rows[0]!;
}

export interface OrgLimits {
  /** The org's per-window limit, from a cache refreshed at most every `ttlMs` per org and process. */
  get(orgId: number): Promise<number>;
}

interface CachedLimit {
  value: Promise<number>;
  expiresAt: number;
}

/**
 * Caches each org's limit for `ttlMs` (the formula moves slowly; a query per request would double the
 * database work of a cheap GET). Concurrent requests of an uncached org share one query.
 */
export function createOrgLimits(db: Queryable, bounds: LimitBounds, ttlMs: number): OrgLimits {
  const cache = new Map<number, CachedLimit>();
  return {
    get(orgId) {
      const now = Date.now();
      const hit = cache.get(orgId);
      if (hit && hit.expiresAt > now) return hit.value;
      if (cache.size > 10_000) dropExpired(cache, now);
      const value = orgTraffic(db, orgId, bounds).then((traffic) => windowLimit(traffic, bounds));
      cache.set(orgId, { value, expiresAt: now + ttlMs });
      // A failed query must not be cached: the next request tries again.
      value.catch(() => {
        if (cache.get(orgId)?.value === value) cache.delete(orgId);
      });
      return value;
    },
  };
}

function dropExpired(cache: Map<number, CachedLimit>, now: number): void {
  for (const [orgId, entry] of cache) if (entry.expiresAt <= now) cache.delete(orgId);
}
