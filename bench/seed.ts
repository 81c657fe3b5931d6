// What the bench runs against: one organization with two connected accounts (x and bluesky), and
// for the list figures a large history of posts written straight into the tables with SQL.
import type { Db } from '../src/db/pool.ts';
import { upsertSocialAccount } from '../src/accounts/social-accounts.ts';
import { encodeId } from '../src/core/ids.ts';
import type { NetworkId } from '../src/core/network-id.ts';
import { createOrg } from '../src/orgs/orgs.ts';
import type { SecretBox } from '../src/security/crypto.ts';

export interface BenchAccount {
  rawId: number;
  /** The public id the API takes in `accounts` and `social_account_id`. */
  id: string;
}

export interface Fixture {
  orgId: number;
  apiKey: string;
  x: BenchAccount;
  bluesky: BenchAccount;
  /** Carried by the bluesky account only, so the tenant filter selects a subset of posts. */
  tenantId: string;
}

export const BENCH_TENANT = 'tenant-bench';

/** The org (created through Crier's own code, so its API key works) and its two accounts. */
export async function createFixture(db: Db, box: SecretBox): Promise<Fixture> {
  const org = await createOrg(db, 'bench');
  const account = async (network: NetworkId, username: string, tenantId: string | null): Promise<BenchAccount> => {
    const rawId = await upsertSocialAccount(db, box, {
      orgId: org.orgId,
      network,
      username,
      networkUniqueId: `bench-${network}`,
      tenantId,
      // Tokens make the rows look like real connected accounts; nothing is published (no worker runs).
      accessToken: `bench-access-${network}`,
      refreshToken: `bench-refresh-${network}`,
    });
    return { rawId, id: encodeId(rawId) };
  };
  return {
    orgId: org.orgId,
    apiKey: org.apiKey,
    x: await account('x', 'bench_x', null),
    bluesky: await account('bluesky', 'bench.bsky.social', BENCH_TENANT),
    tenantId: BENCH_TENANT,
  };
}

export interface SeededHistory {
  posts: number;
  targets: number;
  /** Halfway through the seeded creation times: a `created_after` that keeps about half the posts. */
  midpoint: Date;
}

/** How far back the seeded posts go: creation times are spread evenly over this span up to now. */
const HISTORY_DAYS = 90;

/**
 * Writes `count` posts in one statement (generate_series feeding data-modifying CTEs), which takes
 * seconds where going through POST /v1/posts would take minutes. Each post gets one container and
 * targets in a fixed pattern: id % 3 = 0 -> x only, 1 -> bluesky only, 2 -> both. One post in four
 * has a scheduled_at up to 3 days after its creation; those still in the future are pending and
 * queued, the rest published.
 */
export async function seedPosts(db: Db, fixture: Fixture, count: number): Promise<SeededHistory> {
  const { rows } = await db.query<{ posts: number; targets: number }>(
    `WITH s AS (
       SELECT i, now() - ($2::int - i) * ($3::float8 * interval '1 day' / $2::int) AS created,
              CASE WHEN i % 4 = 0 THEN (i % 72) * interval '1 hour' END AS delay
         FROM generate_series(1, $2::int) AS i
     ), p AS (
       INSERT INTO posts (org_id, scheduled_at, published_at, queued, created_at)
       SELECT $1, created + delay,
              CASE WHEN created + coalesce(delay, interval '0') <= now() THEN created + coalesce(delay, interval '0') END,
              created + coalesce(delay, interval '0') > now(),
              created
         FROM s
       RETURNING id, published_at
     ), c AS (
       INSERT INTO containers (org_id, post_id, position, content)
       SELECT $1, id, 0, 'seeded post #' || id FROM p
     ), t AS (
       INSERT INTO targets (org_id, post_id, account_id, status, published_at, platform_post_id)
       SELECT $1, p.id, a.account_id,
              CASE WHEN p.published_at IS NULL THEN 'pending' ELSE 'published' END,
              p.published_at,
              CASE WHEN p.published_at IS NOT NULL THEN 'seed-' || p.id || '-' || a.account_id END
         FROM p JOIN (VALUES ($4::bigint, 0), ($5::bigint, 1)) AS a(account_id, slot) ON p.id % 3 IN (a.slot, 2)
       RETURNING 1
     )
     SELECT (SELECT count(*)::int FROM p) AS posts, (SELECT count(*)::int FROM t) AS targets`,
    [fixture.orgId, count, HISTORY_DAYS, fixture.x.rawId, fixture.bluesky.rawId],
  );
  // Right after a bulk load the planner has no statistics for these tables yet and the visibility
  // map is empty (index-only scans visit the heap); autovacuum would fix both within a minute or so
  // on a live system. Do it now so plans and costs are the steady-state ones.
  await db.query('VACUUM ANALYZE posts, containers, targets, social_accounts, post_counts');
  return {
    posts: rows[0]!.posts,
    targets: rows[0]!.targets,
    midpoint: new Date(Date.now() - (HISTORY_DAYS / 2) * 86_400_000),
  };
}
