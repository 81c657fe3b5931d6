// The exact number of posts matching a GET /v1/posts filter, read from the counters that migration
// 012_post_counts.sql keeps (per org, scope, and day and five-minute slice of creation or scheduled
// time) instead of counting every matching post: a range is whole days, then whole slices at each
// end, then the posts of its two boundary slices counted row by row. One statement, so one snapshot:
// the counters and the rows it counts agree, and the total is exactly what count(*) would say.
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
}

/** The counters' small grain: five minutes. */
const SLICE = 300_000;
const DAY = 86_400_000;
type Bound = Date | 'infinity' | '-infinity';

/** Half-open [from, to) bucket ranges and the row ranges the buckets cannot cover. */
interface Segments {
  days: [Bound, Bound];
  slices: [Bound, Bound][];
  /** Rows strictly after `lo` and before its slice's end; rows from the last slice's start to strictly before `hi`. */
  head: [Bound, Bound];
  tail: [Bound, Bound];
}

const EMPTY: [Bound, Bound] = ['-infinity', '-infinity'];
const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;

/** How a range splits into days, slices and rows (UTC, as the counters' buckets). */
export function segments(range: TimeRange): Segments {
  const lo = range.after?.getTime();
  const hi = range.before?.getTime();
  const at = (ms: number) => new Date(ms);
  if (lo !== undefined && hi !== undefined && floorTo(lo, SLICE) === floorTo(hi, SLICE)) {
    return { days: EMPTY, slices: [], head: [at(lo), at(hi)], tail: EMPTY };
  }
  const head: [Bound, Bound] = lo === undefined ? EMPTY : [at(lo), at(floorTo(lo, SLICE) + SLICE)];
  const tail: [Bound, Bound] = hi === undefined ? EMPTY : [at(floorTo(hi, SLICE)), at(hi)];
  if (lo !== undefined && hi !== undefined && floorTo(lo, DAY) === floorTo(hi, DAY)) {
    return { days: EMPTY, slices: [[head[1], tail[0]]], head, tail };
  }
  const slices: [Bound, Bound][] = [];
  if (lo !== undefined) slices.push([at(floorTo(lo, SLICE) + SLICE), at(floorTo(lo, DAY) + DAY)]);
  if (hi !== undefined) slices.push([at(floorTo(hi, DAY)), at(floorTo(hi, SLICE))]);
  const days: [Bound, Bound] = [lo === undefined ? '-infinity' : at(floorTo(lo, DAY) + DAY), hi === undefined ? 'infinity' : at(floorTo(hi, DAY))];
  return { days, slices, head, tail };
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
  // Both ranges at once: no counter holds the pair; count the rows (rare, and the ranges cut them down).
  if (byCreated && bySchedule) return `(SELECT count(*) FROM posts p WHERE ${postWhere(filter, params)})`;
  const column = bySchedule ? 'scheduled_at' : 'created_at';
  const grain = bySchedule ? 's' : 'c';
  const range = bySchedule ? filter.scheduled : filter.created;
  if (isEmpty(range)) return '0::int8';
  const seg = segments(range);
  const [slices1, slices2] = [...seg.slices, EMPTY, EMPTY] as [Bound, Bound][];
  const param = (value: unknown) => `$${params.push(value)}`;
  const time = (value: Bound) => `${param(value)}::timestamptz`;
  const scope = param(filter.accountId !== undefined ? `a${filter.accountId}` : filter.tenantId !== undefined ? `t${filter.tenantId}` : '');
  const sum = (grainName: string, [from, to]: [Bound, Bound]) =>
    `(SELECT coalesce(sum(n), 0) FROM post_counts WHERE org_id = $1 AND scope = ${scope} AND grain = '${grainName}'
        AND bucket >= ${time(from)} AND bucket < ${time(to)})`;
  const scoped = rowScope(filter, param);
  const rows = (op: string, [from, to]: [Bound, Bound]) =>
    `(SELECT count(*) FROM posts p WHERE p.org_id = $1 AND p.${column} ${op} ${time(from)} AND p.${column} < ${time(to)}${scoped})`;
  const total = `(${sum(`${grain}d`, seg.days)} + ${sum(`${grain}m`, slices1!)} + ${sum(`${grain}m`, slices2!)}
    + ${rows('>', seg.head)} + ${rows('>=', seg.tail)})::int8`;
  if (filter.accountId === undefined || filter.tenantId === undefined) return total;
  // Account and tenant together: the same account must carry the tenant, else nothing matches.
  return `(CASE WHEN EXISTS (SELECT 1 FROM social_accounts WHERE id = ${param(filter.accountId)} AND org_id = $1
                               AND tenant_id = ${param(filter.tenantId)}) THEN ${total} ELSE 0 END)`;
}

/** No instant is strictly after `after` and before `before`. */
function isEmpty(range: TimeRange): boolean {
  return range.after !== undefined && range.before !== undefined && range.after >= range.before;
}

/** The condition a boundary row must meet to be in the filter's scope: the counters' scope, row by row. */
function rowScope(filter: PostFilter, param: (value: unknown) => string): string {
  if (filter.accountId !== undefined) {
    return ` AND EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id AND t.account_id = ${param(filter.accountId)})`;
  }
  if (filter.tenantId !== undefined) {
    return ` AND EXISTS (SELECT 1 FROM targets t JOIN social_accounts a ON a.id = t.account_id
                         WHERE t.post_id = p.id AND a.tenant_id = ${param(filter.tenantId)})`;
  }
  return '';
}

/**
 * The WHERE clause of a filter over `posts p` (the page's, and the count's when no counter serves), in
 * a statement whose $1 is the org id; its other values are appended to `params`.
 */
export function postWhere(filter: PostFilter, params: unknown[]): string {
  const clauses = ['p.org_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;
  // With both filters, one and the same account must carry the tenant and be the given account.
  const targetConditions: string[] = [];
  if (filter.tenantId !== undefined) targetConditions.push(`a.tenant_id = ${param(filter.tenantId)}`);
  if (filter.accountId !== undefined) targetConditions.push(`t.account_id = ${param(filter.accountId)}`);
  if (targetConditions.length) {
    clauses.push(
      `EXISTS (SELECT 1 FROM targets t JOIN social_accounts a ON a.id = t.account_id
                WHERE t.post_id = p.id AND ${targetConditions.join(' AND ')})`,
    );
  }
  // PostgreSQL gets the instant, never the text (it would read a plain date in the session's time zone).
  if (filter.created.after) clauses.push(`p.created_at > ${param(filter.created.after)}`);
  if (filter.created.before) clauses.push(`p.created_at < ${param(filter.created.before)}`);
  if (filter.scheduled.after) clauses.push(`p.scheduled_at > ${param(filter.scheduled.after)}`);
  if (filter.scheduled.before) clauses.push(`p.scheduled_at < ${param(filter.scheduled.before)}`);
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
