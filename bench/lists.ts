// The list figures of `npm run bench` (`-- --only lists`): GET /v1/posts under every filter of the
// issue, over four data shapes, each shape an org of its own in the bench database:
//   spread      posts created evenly over 90 days, on 50 accounts in 10 tenants of 5;
//   one_day     the same, all created within the last day (so every minute and second holds posts);
//   hot_account one account targeted by 90% of the posts, the rest spread over the other 49;
//   one_tenant  all 50 accounts carrying one tenant.
// Each figure's total is checked against count(*) of the same filter before it is loaded, and its
// CPU per request is read from /proc: the API process, and the PostgreSQL backends of the database.
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import type pg from 'pg';
import { encodeId } from '../src/core/ids.ts';
import { createPool, type Db } from '../src/db/pool.ts';
import { NETWORK_LIST } from '../src/networks/registry.ts';
import { createOrg } from '../src/orgs/orgs.ts';
import { postWhere, type PostFilter } from '../src/posts/totals.ts';
import { backendCpu, backendCpuUsed } from './proc.ts';

export type ListShapeName = 'spread' | 'one_day' | 'hot_account' | 'one_tenant';
export const LIST_SHAPES: readonly ListShapeName[] = ['spread', 'one_day', 'hot_account', 'one_tenant'];

const ACCOUNTS = 50;
const TENANTS = 10;
const DAY_MS = 86_400_000;

export interface ListShape {
  name: ListShapeName;
  orgId: number;
  apiKey: string;
  /** Raw ids of the org's accounts, index 0 first (the hot account of hot_account). */
  accounts: number[];
  /** The tenant the tenant figures ask for: carried by account 0. */
  tenantId: string;
  posts: number;
  targets: number;
  /** When the seeded creation times start and end. */
  from: Date;
  to: Date;
}

/**
 * An org with 50 accounts and `count` posts of the given shape, written in `chunks` statements at
 * once (each generate_series feeding data-modifying CTEs, over its own run of the posts). Creation
 * times are spread evenly over the shape's span, in id order within a chunk, with odd milliseconds.
 * One post in four is scheduled up to 3 days after its creation (pending and queued when still ahead,
 * else published); one in three targets two accounts (in hot_account, one in three of the hot
 * account's posts).
 */
export async function seedListShape(db: Db, name: ListShapeName, count: number, chunks = 1): Promise<ListShape> {
  const { orgId, apiKey } = await createOrg(db, `bench lists ${name}`);
  const tenantOf = (i: number) => (name === 'one_tenant' ? 'tenant-0' : `tenant-${i % TENANTS}`);
  const { rows: accountRows } = await db.query<{ id: number }>(
    `INSERT INTO social_accounts (org_id, network, username, nickname, tenant_id, network_unique_id)
     SELECT $1, n.network, 'bench_' || i, 'Bench ' || i, n.tenant, 'bench-lists-' || i
       FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS n(network, tenant, i)
      ORDER BY i
     RETURNING id`,
    [orgId, Array.from({ length: ACCOUNTS }, (_, i) => NETWORK_LIST[i % NETWORK_LIST.length]!.id), Array.from({ length: ACCOUNTS }, (_, i) => tenantOf(i))],
  );
  const accounts = accountRows.map((r) => Number(r.id));
  const to = Date.now() - 60_000;
  const from = to - (name === 'one_day' ? 1 : 90) * DAY_MS;
  // Indexes into `accounts` of each post's first account and second (one post in three): id % 50 and
  // the next; for hot_account, account 0 and one of the others on nine posts in ten, else one of the others.
  const first = name === 'hot_account' ? `CASE WHEN n.id % 10 <> 0 THEN 0 ELSE 1 + n.id % 49 END` : `n.id % ${ACCOUNTS}`;
  const second = name === 'hot_account' ? `CASE WHEN n.id % 10 <> 0 THEN 1 + (n.id * 7) % 49 END` : `(n.id + 1) % ${ACCOUNTS}`;
  const seedChunk = (lo: number, hi: number) => db.query<{ posts: number; targets: number }>(
    `WITH s AS (
       SELECT i, to_timestamp(($3::float8 + ($4::float8 - $3::float8) * i / $2::int) / 1000) AS created,
              CASE WHEN i % 4 = 0 THEN (i % 72) * interval '1 hour' + (i % 997) * interval '1 second' END AS delay
         FROM generate_series($6::int, $7::int) AS i
     ), p AS (
       INSERT INTO posts (org_id, scheduled_at, published_at, queued, created_at)
       SELECT $1, created + delay,
              CASE WHEN created + coalesce(delay, interval '0') <= now() THEN created + coalesce(delay, interval '0') END,
              created + coalesce(delay, interval '0') > now(),
              created
         FROM s ORDER BY i
       RETURNING id, published_at
     ), c AS (
       INSERT INTO containers (org_id, post_id, position, content)
       SELECT $1, id, 0, 'seeded post #' || id FROM p
     ), t AS (
       INSERT INTO targets (org_id, post_id, account_id, status, published_at, platform_post_id)
       SELECT $1, n.id, ($5::bigint[])[slot.a + 1],
              -- About one post in a thousand failed: the rare status a status filter looks for.
              CASE WHEN n.id % 997 = 5 THEN 'failed' WHEN n.published_at IS NULL THEN 'pending' ELSE 'published' END,
              n.published_at,
              CASE WHEN n.published_at IS NOT NULL THEN 'seed-' || n.id || '-' || slot.a END
         FROM p AS n CROSS JOIN LATERAL (VALUES (${first}), (CASE WHEN n.id % 3 = 2 THEN ${second} END)) AS slot(a)
        WHERE slot.a IS NOT NULL
       RETURNING 1
     )
     SELECT (SELECT count(*)::int FROM p) AS posts, (SELECT count(*)::int FROM t) AS targets`,
    [orgId, count, from, to, accounts, lo, hi],
  );
  const bounds = Array.from({ length: chunks }, (_, k) => [Math.floor((count * k) / chunks) + 1, Math.floor((count * (k + 1)) / chunks)] as const);
  const written = await Promise.all(bounds.map(([lo, hi]) => seedChunk(lo, hi)));
  const sum = (pick: (row: { posts: number; targets: number }) => number) => written.reduce((a, { rows }) => a + pick(rows[0]!), 0);
  return { name, orgId, apiKey, accounts, tenantId: tenantOf(0), posts: sum((r) => r.posts), targets: sum((r) => r.targets), from: new Date(from), to: new Date(to) };
}

/**
 * Seeds every shape, then settles the tables as a live system's autovacuum would within a minute or
 * so: statistics for the planner, and the visibility map (index-only scans skip the heap).
 *
 * The shapes at once, each its own organization (no row in common), each in as many statements at
 * once as the cores allow: a shape of 1,000,000 posts in one statement took ~3.5 minutes on one
 * core, and on the lent 16-core machine the lists did not fit the 600 s of a command (bench/many-cores.sh).
 * The tables are vacuumed side by side for the same reason.
 */
export async function seedListShapes(databaseUrl: string, count: number, log: (line: string) => void): Promise<ListShape[]> {
  const chunks = Math.max(1, Math.floor(os.availableParallelism() / LIST_SHAPES.length));
  const pool = createPool(databaseUrl, LIST_SHAPES.length * chunks);
  try {
    const shapes = await Promise.all(LIST_SHAPES.map(async (name) => {
      const started = performance.now();
      const shape = await seedListShape(pool, name, count, chunks);
      log(`lists: seeded ${name}: ${shape.posts} posts, ${shape.targets} targets in ${chunks} statements, ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return shape;
    }));
    await Promise.all(['posts', 'containers', 'targets', 'social_accounts', 'post_counts'].map((table) => pool.query(`VACUUM ANALYZE ${table}`)));
    return shapes;
  } finally {
    await pool.end();
  }
}

/**
 * One figure per filter of the issue, named `posts.list.<shape>.<filter>`, with bounds at odd
 * milliseconds (inside a second, a minute, an hour) placed by fractions of the shape's span, so that
 * a one-day shape gets ranges of hours where a 90-day one gets ranges of days.
 */
export function listFigures(shape: ListShape): [string, Record<string, string>][] {
  const from = shape.from.getTime();
  const span = shape.to.getTime() - from;
  const at = (fraction: number, offsetMs: number) => new Date(from + Math.round(span * fraction) + offsetMs).toISOString();
  const account = encodeId(shape.accounts[0]!);
  const now = Date.now();
  const figures: [string, Record<string, string>][] = [
    ['none', { limit: '50' }],
    ['by_account', { social_account_id: account, limit: '20' }],
    ['by_tenant', { tenant_id: shape.tenantId, limit: '20' }],
    ['created_range', { created_after: at(0.4, 1234), created_before: at(0.7, -5678), limit: '20' }],
    // What is coming up: the next three days (scheduled posts are due up to 3 days after creation).
    ['scheduled_range', { scheduled_after: new Date(now - 5678).toISOString(), scheduled_before: new Date(now + 3 * DAY_MS + 1234).toISOString(), limit: '20' }],
    ['by_tenant_since', { tenant_id: shape.tenantId, created_after: at(0.5, 4321), limit: '20' }],
    ['by_tenant_account', { tenant_id: shape.tenantId, social_account_id: account, limit: '20' }],
    // Beyond the list: the status filter (posts with a destination in a status), whose
    // total counts its rows (no counter holds statuses). A rare status (about 0.1% of the posts)
    // and the most common one.
    ['by_status_rare', { status: 'failed', limit: '20' }],
    ['by_status_common', { status: 'published', limit: '20' }],
  ];
  // Beside the account holding 90%, one of the accounts sharing the other 10%: few posts per page walked.
  if (shape.name === 'hot_account') figures.splice(2, 0, ['by_small_account', { social_account_id: encodeId(shape.accounts[7]!), limit: '20' }]);
  return figures.map(([filter, query]) => [`posts.list.${shape.name}.${filter}`, query]);
}

/** The exact number of posts `query` selects in `shape`'s org: count(*) with the list's own WHERE clause. */
export async function countStar(db: Db, shape: ListShape, query: Record<string, string>): Promise<number> {
  const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
  const accountIndex = query.social_account_id === undefined ? -1 : shape.accounts.findIndex((id) => encodeId(id) === query.social_account_id);
  const filter: PostFilter = {
    orgId: shape.orgId,
    accountId: accountIndex < 0 ? undefined : shape.accounts[accountIndex],
    tenantId: query.tenant_id,
    created: { after: date(query.created_after), before: date(query.created_before) },
    scheduled: { after: date(query.scheduled_after), before: date(query.scheduled_before) },
    ...(query.status ? { statuses: query.status.split(',') } : {}),
  };
  const params: unknown[] = [shape.orgId];
  const where = postWhere(filter, params);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM posts p WHERE ${where}`, params);
  return rows[0]!.n;
}

/**
 * Starts counting the CPU of the PostgreSQL backends whose application_name is `appName` (the API's
 * connections), read from /proc: what a figure costs the database per request, however busy the
 * machine is. The returned function gives the CPU seconds they used since, backend by backend (one
 * opened meanwhile counts from zero): summing whatever backends the database had at each end would
 * count the bench's own connection closing on idle as negative CPU.
 */
export async function databaseCpuSince(db: pg.Pool, appName: string): Promise<() => Promise<number>> {
  const before = await backendCpu(db, [appName]);
  return async () => backendCpuUsed(before, await backendCpu(db, [appName])) ?? Number.NaN;
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them: how busy the shared machine was. */
export function loadAverage(): string {
  return os.loadavg().map((n) => n.toFixed(2)).join(' / ');
}
