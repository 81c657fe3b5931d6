// GET /v1/posts: filters combined with AND, newest first, with the total across pages.
import { prepared, type Queryable } from '../db/pool.ts';
import { validationError } from '../errors.ts';
import { parseEncodedOrNumericId } from '../ids.ts';
import { parseDateOrDateTime } from '../validation/date-time.ts';
import { POST_ROW_SQL } from './read.ts';
import { toPostJson, type PostJson, type PostRow } from './serialize.ts';
import type { ListPostsQuery } from './schema.ts';

export interface PostPage {
  posts: PostJson[];
  pagination: { total: number; count: number; limit: number; offset: number };
}

export async function listPosts(db: Queryable, orgId: number, query: ListPostsQuery): Promise<PostPage> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const { where, params, accountId } = buildFilter(orgId, query);
  const page = await db.query<PostRow>({
    ...prepared(`SELECT ${POST_ROW_SQL} FROM posts p WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${offset}`),
    values: params,
  });
  const posts = page.rows.map((row) => toPostJson(row));
  // A partial page ends the result, so it tells the total without counting (counting is the costly part).
  const total = posts.length > 0 && posts.length < limit ? offset + posts.length : await countPosts(db, orgId, query, { where, params, accountId });
  return { posts, pagination: { total, count: posts.length, limit, offset } };
}

/**
 * The exact total of the filter. Filtered by one account only, it is that account's number of targets
 * (one per post), which the (account_id, post_id) index counts without touching posts.
 */
async function countPosts(db: Queryable, orgId: number, query: ListPostsQuery, filter: Filter): Promise<number> {
  const { where, params, accountId } = filter;
  const onlyAccount = accountId !== undefined && (query.tenant_id ?? query.tenantId) === undefined &&
    !query.created_after && !query.created_before && !query.scheduled_after && !query.scheduled_before;
  const sql = onlyAccount
    ? { ...prepared('SELECT count(*)::int AS total FROM targets t WHERE t.org_id = $1 AND t.account_id = $2'), values: [orgId, accountId] }
    : { ...prepared(`SELECT count(*)::int AS total FROM posts p WHERE ${where}`), values: params };
  return (await db.query<{ total: number }>(sql)).rows[0]!.total;
}

interface Filter {
  where: string;
  params: unknown[];
  accountId: number | undefined;
}

function buildFilter(orgId: number, query: ListPostsQuery): Filter {
  const params: unknown[] = [orgId];
  const clauses = ['p.org_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;

  const tenantId = query.tenant_id ?? query.tenantId;
  const accountId = query.social_account_id === undefined ? undefined : parseAccountId(query.social_account_id);
  // With both filters, one and the same account must carry the tenant and be the given account.
  const targetConditions: string[] = [];
  if (tenantId !== undefined) targetConditions.push(`a.tenant_id = ${param(tenantId)}`);
  if (accountId !== undefined) targetConditions.push(`t.account_id = ${param(accountId)}`);
  if (targetConditions.length) {
    clauses.push(
      `EXISTS (SELECT 1 FROM targets t JOIN social_accounts a ON a.id = t.account_id
                WHERE t.post_id = p.id AND ${targetConditions.join(' AND ')})`,
    );
  }
  // The route's schema has checked each bound with the same parser; PostgreSQL gets the instant, never
  // the text (it would read a plain date in the session's time zone).
  const bound = (text: string) => param(parseDateOrDateTime(text)!);
  if (query.created_after) clauses.push(`p.created_at > ${bound(query.created_after)}`);
  if (query.created_before) clauses.push(`p.created_at < ${bound(query.created_before)}`);
  if (query.scheduled_after) clauses.push(`p.scheduled_at > ${bound(query.scheduled_after)}`);
  if (query.scheduled_before) clauses.push(`p.scheduled_at < ${bound(query.scheduled_before)}`);
  return { where: clauses.join(' AND '), params, accountId };
}

/** The spec accepts the encoded id or the raw number. */
function parseAccountId(value: string): number {
  const id = parseEncodedOrNumericId(value);
  if (id === undefined) {
    throw validationError([{ field: 'social_account_id', message: 'must be an account id from GET /v1/social-accounts or its numeric form' }]);
  }
  return id;
}
