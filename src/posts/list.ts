// GET /v1/posts: filters combined with AND, newest first, with the exact total across pages.
import { prepared, type Queryable } from '../db/pool.ts';
import { validationError } from '../errors.ts';
import { parseEncodedOrNumericId } from '../ids.ts';
import { parseDateOrDateTime } from '../validation/date-time.ts';
import { RAW_TIMESTAMPS, toPostJson, type PostJson, type PostRow, type TargetRow } from './serialize.ts';
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
  const { rows } = await db.query<ListRow>({ ...listStatement(orgId, query, limit, offset), types: RAW_TIMESTAMPS });
  const first = rows[0]!;
  // An empty page still gives one row, for the total, with the post's columns null.
  const posts = first.id === null ? [] : toPosts(rows);
  return { posts, pagination: { total: first.total, count: posts.length, limit, offset } };
}

/**
 * A page row: the post's own columns, its account ids and its containers as [id, content] pairs.
 * The accounts and media of the whole page come once, as JSON text (repeated on every row, read
 * from the first): building a JSON object per account of every post was half the statement's cost.
 */
interface ListRow extends Omit<PostRow, 'accounts' | 'containers'> {
  /** bigint[]: node-postgres gives the elements as strings. */
  account_ids: string[];
  containers: [id: number, content: string][];
  accounts: string;
  media: string | null;
  total: number;
}

function toPosts(rows: ListRow[]): PostJson[] {
  const accounts = new Map<number, TargetRow>();
  for (const [id, network, username, nickname] of JSON.parse(rows[0]!.accounts) as [number, string, string, string][]) {
    accounts.set(id, { id, network, username, nickname });
  }
  const media = new Map<number, PostRow['containers'][number]['media']>();
  for (const [container, id, url, filename, altText] of JSON.parse(rows[0]!.media ?? '[]') as [number, number, string, string, string | null][]) {
    let list = media.get(container);
    if (!list) media.set(container, (list = []));
    list.push({ id, url, filename, altText });
  }
  return rows.map((row) => toPostJson({
    ...row,
    accounts: row.account_ids.map((id) => accounts.get(Number(id))!),
    containers: row.containers.map(([id, content]) => ({ id, content, media: media.get(id) ?? [] })),
  }));
}

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
        SELECT p.id, p.org_id, p.published_at, p.scheduled_at, p.is_draft, p.created_at, p.network_options, p.process_media, p.queued,
               array(SELECT t.account_id FROM targets t WHERE t.post_id = p.id ORDER BY t.id) AS account_ids,
               (SELECT coalesce(json_agg(json_build_array(c.id, c.content) ORDER BY c.position), '[]') FROM containers c WHERE c.post_id = p.id) AS containers
          FROM posts p WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limitSql}${offset === 0 ? '' : ` OFFSET ${offsetSql}`}
      ), size AS (SELECT count(*) AS n FROM page)
      SELECT page.*,
             CASE WHEN size.n > 0 AND size.n < ${limitSql} THEN ${offsetSql} + size.n ELSE ${total} END AS total,
             (SELECT coalesce(json_agg(json_build_array(a.id, a.network, a.username, a.nickname)), '[]')
                FROM social_accounts a WHERE a.id IN (SELECT unnest(account_ids) FROM page))::text AS accounts,
             (SELECT json_agg(json_build_array(m.container_id, m.id, m.url, m.filename, m.alt_text) ORDER BY m.container_id, m.position)
                FROM container_media m WHERE m.container_id IN (SELECT (c ->> 0)::int8 FROM page, json_array_elements(page.containers) AS c))::text AS media
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
