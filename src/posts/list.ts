// GET /v1/posts: filters combined with AND, newest first, with the exact total across pages.
import { prepared, type Queryable } from '../db/pool.ts';
import { validationError } from '../errors.ts';
import { parseEncodedOrNumericId } from '../ids.ts';
import { parseDateOrDateTime } from '../validation/date-time.ts';
import { POST_ROW_SQL } from './read.ts';
import { toPostJson, type PostJson, type PostRow } from './serialize.ts';
import type { ListPostsQuery } from './schema.ts';
import { postWhere, totalSql, type PostFilter } from './totals.ts';

export interface PostPage {
  posts: PostJson[];
  pagination: { total: number; count: number; limit: number; offset: number };
}

/**
 * The page and its total in one statement (one round trip, one snapshot). A partial page ends the
 * result, so it tells the total itself; otherwise the counters do (totals.ts), evaluated only then.
 * LIMIT and OFFSET are parameters: in the text, every distinct page would be one more prepared
 * statement on every pooled connection.
 */
export async function listPosts(db: Queryable, orgId: number, query: ListPostsQuery): Promise<PostPage> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const filter = toFilter(orgId, query);
  const params: unknown[] = [orgId];
  const where = postWhere(filter, params);
  const [limitParam, offsetParam] = [`$${params.push(limit)}`, `$${params.push(offset)}`];
  const total = totalSql(filter, params);
  const { rows } = await db.query<PostRow & { total: number }>({
    ...prepared(`WITH page AS (
        SELECT ${POST_ROW_SQL} FROM posts p WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limitParam} OFFSET ${offsetParam}
      ), size AS (SELECT count(*) AS n FROM page)
      SELECT page.*, CASE WHEN size.n > 0 AND size.n < ${limitParam} THEN ${offsetParam} + size.n ELSE ${total} END AS total
        FROM size LEFT JOIN page ON true
       ORDER BY page.created_at DESC, page.id DESC`),
    values: params,
  });
  // An empty page still gives one row, for the total, with the post's columns null.
  const posts = rows[0]!.id === null ? [] : rows.map((row) => toPostJson(row));
  return { posts, pagination: { total: rows[0]!.total, count: posts.length, limit, offset } };
}

function toFilter(orgId: number, query: ListPostsQuery): PostFilter {
  // The route's schema has checked each bound with the same parser.
  const bound = (text: string | undefined) => (text ? parseDateOrDateTime(text)! : undefined);
  return {
    orgId,
    accountId: query.social_account_id === undefined ? undefined : parseAccountId(query.social_account_id),
    tenantId: query.tenant_id ?? query.tenantId,
    created: { after: bound(query.created_after), before: bound(query.created_before) },
    scheduled: { after: bound(query.scheduled_after), before: bound(query.scheduled_before) },
  };
}

/** The spec accepts the encoded id or the raw number. */
function parseAccountId(value: string): number {
  const id = parseEncodedOrNumericId(value);
  if (id === undefined) {
    throw validationError([{ field: 'social_account_id', message: 'must be an account id from GET /v1/social-accounts or its numeric form' }]);
  }
  return id;
}
