// The exact number of posts matching a GET /v1/posts filter, read from the counters that migration
// 012_post_counts.sql keeps (per org, scope, and day, hour, minute and second of creation or scheduled
// time, migration 029) instead of counting every matching post: post_counts_total() adds whole days,
// then the whole hours, minutes and seconds at each end, then the posts of its two boundary seconds
// counted row by row. Evaluated in the list's own statement, so in its snapshot: the total is exactly
// what count(*) would say.
import { prepared, type Queryable } from '../db/pool.ts';

export interface TimeRange {
  /** Exclusive bounds, as the spec's `*_after` and `*_before`. */
  after?: Date;
  before?: Date;
}

export interface PostFilter {
  orgId: number;
  accountId?: number;
  tenantId?: string;
  created: TimeRange;
  scheduled: TimeRange;
  /** Destination statuses (posts/schema.ts TARGET_STATUSES, checked): a post with a destination in one. */
  statuses?: readonly string[];
}

/** The exact number of posts matching `filter`, in a statement of its own. */
export async function countPosts(db: Queryable, filter: PostFilter): Promise<number> {
  if (isEmpty(filter.created) || isEmpty(filter.scheduled)) return 0;
  const params: unknown[] = [filter.orgId];
  const sql = `SELECT ${totalSql(filter, params)} AS total`;
  const { rows } = await db.query<{ total: number }>({ ...prepared(sql), values: params });
  return rows[0]!.total;
}

/**
 * An SQL expression (int8) for the exact number of posts matching `filter`, to use in a statement
 * whose parameter $1 is the org id; its other values are appended to `params`.
 */
export function totalSql(filter: PostFilter, params: unknown[]): string {
  const byCreated = filter.created.after !== undefined || filter.created.before !== undefined;
  const bySchedule = filter.scheduled.after !== undefined || filter.scheduled.before !== undefined;
  if (filter.statuses) return statusTotalSql(filter, params, bySchedule);
  // Both ranges at once: no counter holds the pair; count the rows (rare, and the ranges cut them down).
  if (byCreated && bySchedule) return `(SELECT count(*) FROM posts p WHERE ${postWhere(filter, params)})`;
  const range = bySchedule ? filter.scheduled : filter.created;
  if (isEmpty(range)) return '0::int8';
  const param = (value: unknown) => `$${params.push(value)}`;
  const scope = filter.accountId !== undefined ? `a${filter.accountId}` : filter.tenantId !== undefined ? `t${filter.tenantId}` : '';
  // The boundary rows are checked for the account (which, when a tenant is asked too, must carry it).
  const rowTenant = filter.accountId === undefined ? filter.tenantId : undefined;
  // A scalar subquery: evaluated once per statement, not once per row of the page beside it.
  const total = `(SELECT post_counts_total($1, ${param(scope)}, '${bySchedule ? 's' : 'c'}', ${param(range.after ?? null)}::timestamptz, `
    + `${param(range.before ?? null)}::timestamptz, ${param(filter.accountId ?? null)}::int8, ${param(rowTenant ?? null)}::text))`;
  if (filter.accountId === undefined || filter.tenantId === undefined) return total;
  // Account and tenant together: the same account must carry the tenant, else nothing matches.
  return `(CASE WHEN EXISTS (SELECT 1 FROM social_accounts WHERE id = ${param(filter.accountId)} AND org_id = $1
                               AND tenant_id = ${param(filter.tenantId)}) THEN ${total} ELSE 0 END)`;
}

/**
 * A status filter's total. No counter holds statuses (they change as posts publish): the matching
 * posts are counted, as the distinct posts of the matching destinations read from targets_org_status
 * (migration 036; account, tenant and created range are the destination's own columns) — at 1,000,000
 * posts, 700,000 of them published, 96 ms where counting posts through their EXISTS took 260 ms. A
 * scheduled range needs the posts' rows: then through postWhere. The statuses were checked (list.ts).
 */
function statusTotalSql(filter: PostFilter, params: unknown[], bySchedule: boolean): string {
  if (bySchedule) return `(SELECT count(*) FROM posts p WHERE ${postWhere(filter, params)})`;
  const param = (value: unknown) => `$${params.push(value)}`;
  const conditions = [`t.org_id = $1`, `t.status IN (${filter.statuses!.map((status) => `'${status}'`).join(', ')})`];
  if (filter.accountId !== undefined) conditions.push(`t.account_id = ${param(filter.accountId)}`);
  if (filter.created.after) conditions.push(`t.post_created_at > ${param(filter.created.after)}`);
  if (filter.created.before) conditions.push(`t.post_created_at < ${param(filter.created.before)}`);
  const tenant = filter.tenantId === undefined ? '' : ` JOIN social_accounts a ON a.id = t.account_id AND a.tenant_id = ${param(filter.tenantId)}`;
  return `(SELECT count(*) FROM (SELECT DISTINCT t.post_id FROM targets t${tenant} WHERE ${conditions.join(' AND ')}) AS matching)`;
}

/** No instant is strictly after `after` and before `before`. */
function isEmpty(range: TimeRange): boolean {
  return range.after !== undefined && range.before !== undefined && range.after >= range.before;
}

/**
 * The WHERE clause of a filter over `posts p` (the page's, and the count's when no counter serves), in
 * a statement whose $1 is the org id; its other values are appended to `params`. `bound` writes the
 * SQL of a time bound's parameter (the page hides it from the planner: list.ts's timeBound).
 */
export function postWhere(filter: PostFilter, params: unknown[], bound: (param: string) => string = (param) => param): string {
  const clauses = ['p.org_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;
  const at = (value: Date) => bound(param(value));
  // With both filters, one and the same account must carry the tenant and be the given account.
  const targetConditions: string[] = [];
  if (filter.tenantId !== undefined) targetConditions.push(`a.tenant_id = ${param(filter.tenantId)}`);
  if (filter.accountId !== undefined) targetConditions.push(`t.account_id = ${param(filter.accountId)}`);
  // Statuses are written as literals (checked against the enum): the planner then knows how rare each
  // is, and reads a rare one from targets_org_status rather than testing every post (migration 036).
  if (filter.statuses) targetConditions.push(`t.org_id = $1 AND t.status IN (${filter.statuses.map((status) => `'${status}'`).join(', ')})`);
  if (targetConditions.length) {
    const accounts = filter.tenantId === undefined ? '' : ' JOIN social_accounts a ON a.id = t.account_id';
    clauses.push(`EXISTS (SELECT 1 FROM targets t${accounts} WHERE t.post_id = p.id AND ${targetConditions.join(' AND ')})`);
  }
  // PostgreSQL gets the instant, never the text (it would read a plain date in the session's time zone).
  if (filter.created.after) clauses.push(`p.created_at > ${at(filter.created.after)}`);
  if (filter.created.before) clauses.push(`p.created_at < ${at(filter.created.before)}`);
  if (filter.scheduled.after) clauses.push(`p.scheduled_at > ${at(filter.scheduled.after)}`);
  if (filter.scheduled.before) clauses.push(`p.scheduled_at < ${at(filter.scheduled.before)}`);
  return clauses.join(' AND ');
}

/**
 * Folds the writers' counter shards into one row per bucket (migration 012): run by the periodic
 * maintenance, so that a total sums about one row per day and slice rather than one per writer.
 */
export async function foldPostCounts(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ folded: number }>('SELECT post_counts_fold() AS folded');
  return rows[0]!.folded;
}
