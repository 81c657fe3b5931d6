// GET /v1/posts: filters combined with AND, newest first, with the exact total across pages.
import { prepared, type Queryable } from '../db/pool.ts';
import { validationError } from '../errors.ts';
import { parseEncodedOrNumericId } from '../ids.ts';
import { parseDateOrDateTime } from '../validation/date-time.ts';
import { postRowSql } from './read.ts';
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
 */
export async function listPosts(db: Queryable, orgId: number, query: ListPostsQuery): Promise<PostPage> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const { rows } = await db.query<PostRow & { total: number }>(listStatement(orgId, query, limit, offset));
  // An empty page still gives one row, for the total, with the post's columns null.
  const posts = rows[0]!.id === null ? [] : rows.map((row) => toPostJson(row));
  return { posts, pagination: { total: rows[0]!.total, count: posts.length, limit, offset } };
}

const LIST_ROW_SQL = postRowSql(false);

/**
 * The statement of one page. A first page (offset 0, by far the most read) has its LIMIT in the text,
 * at most 100 texts per filter shape: PostgreSQL then keeps one generic plan for it instead of
 * planning every request (with a LIMIT it cannot see, it would assume a tenth of the org's posts are
 * wanted, and plan accordingly). Deeper pages pass LIMIT and OFFSET as parameters (planned each time):
 * in the text, every distinct page would be one more prepared statement on every pooled connection.
 */
export function listStatement(orgId: number, query: ListPostsQuery, limit: number, offset: number): { name: string; text: string; values: unknown[] } {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit ${limit}`);
  const filter = toFilter(orgId, query);
  const params: unknown[] = [orgId];
  const where = postWhere(filter, params);
  const [limitSql, offsetSql] = offset === 0 ? [String(limit), '0'] : [`$${params.push(limit)}`, `$${params.push(offset)}`];
  const total = totalSql(filter, params);
  return {
    ...prepared(`WITH page AS (
        SELECT ${LIST_ROW_SQL} FROM posts p WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limitSql}${offset === 0 ? '' : ` OFFSET ${offsetSql}`}
      ), size AS (SELECT count(*) AS n FROM page)
      SELECT page.*, CASE WHEN size.n > 0 AND size.n < ${limitSql} THEN ${offsetSql} + size.n ELSE ${total} END AS total
        FROM size LEFT JOIN page ON true
       ORDER BY page.created_at DESC, page.id DESC`),
    values: params,
  };
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
