// GET /v1/posts: filters combined with AND, newest first, with the exact total across pages.
import { prepared, type Queryable } from '../db/pool.ts';
import { validationError } from '../core/errors.ts';
import { parseEncodedOrNumericId } from '../core/ids.ts';
import { parseDateOrDateTime } from '../validation/date-time.ts';
import { MAX_PAGE_SIZE } from '../validation/pagination.ts';
import { toPostJson, type PostJson, type PostRow, type TargetRow, type EditedPart } from './serialize.ts';
import { TARGET_STATUSES, type ListPostsQuery } from './schema.ts';
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
  const { rows } = await db.query<PageRow>(listStatement(orgId, query, limit, offset));
  const page = rows[0]!;
  const posts = page.posts === null ? [] : toPosts(orgId, page);
  return { posts, pagination: { total: page.total, count: posts.length, limit, offset } };
}

/**
 * The whole page as one row of JSON texts, parsed here with JSON.parse: node-postgres parsing fifty
 * rows field by field (arrays, json, timestamps) cost more of the API's CPU than the statement did of
 * PostgreSQL's. Posts come in page order, their times in UTC without an offset (serialize.ts's iso()
 * rewrites them without a Date, whatever the session's time zone); targets and containers in no
 * particular order, each with what orders it within its post (the target's id, the container's position).
 */
interface PageRow {
  /** [id, published_at, scheduled_at, is_draft, created_at, network_options, process_media, queued, approval,
   *  approval_decided_at, approval_decided_by, approval_reason][], null: empty page. */
  posts: string | null;
  /** [post_id, target_id, account_id][] */
  targets: string | null;
  /** [post_id, container_id, position, content][] */
  containers: string | null;
  /** [post_id, 'r' (a recurrence's occurrence) or 'e' (an evergreen collection's run), the recurrence or collection id][] */
  origins: string | null;
  /** [account_id, network, username, nickname][] of the page's accounts, each once. */
  accounts: string | null;
  /** [container_id, media_id, url, filename, alt_text][] in container and position order. */
  media: string | null;
  total: number;
}

type PagePost = [id: number, publishedAt: string | null, scheduledAt: string | null, isDraft: boolean, createdAt: string,
  networkOptions: Record<string, unknown> | null, processMedia: boolean, queued: boolean, approval: PostRow['approval'],
  approvalDecidedAt: string | null, approvalDecidedBy: number | null, approvalReason: string | null];
type PageTarget = [post: number, target: number, account: number, status: string, error: string | null,
  platformPostId: string | null, platformPostUrl: string | null, publishedAt: string | null, editedAt: string | null, editedParts: EditedPart[] | null];
type MediaJson = PostRow['containers'][number]['media'][number];

function toPosts(orgId: number, page: PageRow): PostJson[] {
  const accounts = new Map<number, TargetRow>();
  for (const [id, network, username, nickname] of parseList<[number, string, string, string]>(page.accounts)) {
    accounts.set(id, { id, network, username, nickname });
  }
  const media = new Map<number, MediaJson[]>();
  for (const [container, id, url, filename, altText] of parseList<[number, number, string, string, string | null]>(page.media)) {
    pushTo(media, container, { id, url, filename, altText });
  }
  const targetsOf = new Map<number, [targetId: number, account: TargetRow][]>();
  for (const [post, target, account, status, error, platformPostId, platformPostUrl, publishedAt, editedAt, editedParts] of parseList<PageTarget>(page.targets)) {
    pushTo(targetsOf, post, [target, {
      ...accounts.get(account)!, status, error, platform_post_id: platformPostId, platform_post_url: platformPostUrl, published_at: publishedAt, edited_at: editedAt, edited_parts: editedParts,
    }]);
  }
  const containersOf = new Map<number, [position: number, container: PostRow['containers'][number]][]>();
  for (const [post, id, position, content] of parseList<[number, number, number, string]>(page.containers)) {
    pushTo(containersOf, post, [position, { id, content, media: media.get(id) ?? [] }]);
  }
  const recurrenceOf = new Map<number, number>();
  const collectionOf = new Map<number, number>();
  for (const [post, kind, origin] of parseList<[number, 'r' | 'e', number]>(page.origins)) (kind === 'r' ? recurrenceOf : collectionOf).set(post, origin);
  return parseList<PagePost>(page.posts).map(([
    id, publishedAt, scheduledAt, isDraft, createdAt, networkOptions, processMedia, queued, approval, approvalDecidedAt, approvalDecidedBy, approvalReason,
  ]) => toPostJson({
    id,
    org_id: orgId,
    published_at: publishedAt,
    scheduled_at: scheduledAt,
    is_draft: isDraft,
    created_at: createdAt,
    network_options: networkOptions,
    process_media: processMedia,
    queued,
    approval,
    approval_decided_at: approvalDecidedAt,
    approval_decided_by: approvalDecidedBy,
    approval_reason: approvalReason,
    recurrence_id: recurrenceOf.get(id) ?? null,
    evergreen_collection_id: collectionOf.get(id) ?? null,
    accounts: inOrder(targetsOf.get(id)),
    containers: inOrder(containersOf.get(id)),
  }, true));
}

function parseList<T>(json: string | null): T[] {
  return json === null ? [] : (JSON.parse(json) as T[]);
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The values of [rank, value] pairs by rank (a post's few targets or containers). */
function inOrder<V>(ranked: [number, V][] | undefined): V[] {
  if (!ranked) return [];
  if (ranked.length > 1) ranked.sort((a, b) => a[0] - b[0]);
  return ranked.map(([, value]) => value);
}

/**
 * The statement of one page. A first page (offset 0, by far the most read) has its LIMIT in the text,
 * at most 100 texts per filter shape: PostgreSQL then keeps one generic plan for it instead of
 * planning every request (with a LIMIT it cannot see, it would assume a tenth of the org's posts are
 * wanted, and plan accordingly). Deeper pages pass LIMIT and OFFSET as parameters (planned each time):
 * in the text, every distinct page would be one more prepared statement on every pooled connection.
 *
 * The page's posts are found first, then their targets, containers and origins (the recurrence or
 * evergreen collection that made a post) in one index scan each (`= ANY` of the page's ids) rather
 * than a subquery per post: restarting two subqueries (one with a sort, one with an ordered
 * aggregate) fifty times was most of the statement's time, and the origins' two per post were
 * 50-150 µs of a 0.7 ms page (pgbench, 2026-11-30). Ordering within
 * a post is left to toPosts, on a few rows, rather than to a sort of every row here.
 */
export function listStatement(orgId: number, query: ListPostsQuery, limit: number, offset: number): { name: string; text: string; values: unknown[] } {
  // The one number written into the text: an integer of the page range, so the text is one of 100
  // fixed strings whatever a caller sends (the route's schema refused anything else already).
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new RangeError(`limit ${limit}`);
  const filter = toFilter(orgId, query);
  const params: unknown[] = [orgId];
  const [limitSql, offsetSql] = offset === 0 ? [String(limit), '0'] : [`$${params.push(limit)}`, `$${params.push(offset)}`];
  const page = pageSql(filter, params, limitSql, offset === 0 ? undefined : offsetSql);
  const total = totalSql(filter, params);
  return {
    ...prepared(`WITH page AS (${page}
      ), page_targets AS (
        SELECT t.post_id, t.id, t.account_id, t.status, t.error, t.platform_post_id, t.platform_post_url, t.published_at, t.edited_at,
               CASE WHEN t.edited_at IS NULL THEN NULL ELSE
         (SELECT json_agg(json_build_object('position', tp.position, 'content', tp.edited_text) ORDER BY tp.position)
            FROM target_parts tp WHERE tp.target_id = t.id AND tp.edited_at IS NOT NULL) END AS edited_parts
          FROM targets t WHERE t.post_id = ANY (array(SELECT id FROM page))
      ), page_containers AS (
        SELECT c.post_id, c.id, c.position, c.content FROM containers c WHERE c.post_id = ANY (array(SELECT id FROM page))
      ), page_origins AS (
        SELECT o.post_id, 'r' AS kind, o.recurrence_id AS origin FROM recurrence_occurrences o WHERE o.post_id = ANY (array(SELECT id FROM page))
        UNION ALL
        SELECT e.post_id, 'e', e.collection_id FROM evergreen_posts e WHERE e.post_id = ANY (array(SELECT id FROM page))
      ), size AS (SELECT count(*) AS n FROM page)
      SELECT (SELECT json_agg(json_build_array(id, published_at AT TIME ZONE 'UTC', scheduled_at AT TIME ZONE 'UTC', is_draft,
                                                created_at AT TIME ZONE 'UTC', network_options, process_media, queued, approval,
                                                approval_decided_at AT TIME ZONE 'UTC', approval_decided_by, approval_reason)
                              ORDER BY created_at DESC, id DESC) FROM page)::text AS posts,
             (SELECT json_agg(json_build_array(post_id, kind, origin)) FROM page_origins)::text AS origins,
             (SELECT json_agg(json_build_array(post_id, id, account_id, status, error, platform_post_id, platform_post_url,
                                                published_at AT TIME ZONE 'UTC', edited_at AT TIME ZONE 'UTC', edited_parts)) FROM page_targets)::text AS targets,
             (SELECT json_agg(json_build_array(post_id, id, position, content)) FROM page_containers)::text AS containers,
             (SELECT json_agg(json_build_array(a.id, a.network, a.username, a.nickname))
                FROM social_accounts a WHERE a.id IN (SELECT account_id FROM page_targets))::text AS accounts,
             (SELECT json_agg(json_build_array(m.container_id, m.id, m.url, m.filename, m.alt_text) ORDER BY m.container_id, m.position)
                FROM container_media m WHERE m.container_id IN (SELECT id FROM page_containers))::text AS media,
             CASE WHEN size.n > 0 AND size.n < ${limitSql} THEN ${offsetSql} + size.n ELSE ${total} END AS total
        FROM size`),
    values: params,
  };
}

const PAGE_COLUMNS = 'p.id, p.published_at, p.scheduled_at, p.is_draft, p.created_at, p.network_options, p.process_media, p.queued, '
  + 'p.approval, p.approval_decided_at, p.approval_decided_by, p.approval_reason';

/**
 * A time bound of the page as a value the planner cannot see, in custom plans as in the generic one
 * (an initplan, still an index condition): both then cost the same and PostgreSQL keeps the generic
 * plan. Seen, a narrow scheduled range made every custom plan look cheaper, and every request was
 * planned anew (0.25 ms of 0.5).
 */
const timeBound = (param: string) => `(SELECT ${param}::timestamptz)`;

/**
 * The page's posts, newest first, each filter read from the index that holds its posts in that order
 * so that a page costs its own rows whatever the data's shape:
 * - an account (with or without a tenant it must carry): its targets by targets_account_created
 *   (account, the post's created_at, post id), a created range included;
 * - a tenant: the same index, the newest `offset + limit` of each of the tenant's accounts, merged
 *   (a post on two of its accounts once). Every post of the page is among its own account's newest
 *   `offset + limit`: the posts before it there are distinct posts of the tenant, all before it;
 * - otherwise the org's posts by posts_org_created (or, scheduled ones, 013's index), which the
 *   filter's conditions cut.
 * With a scheduled range the account and tenant pages take the last path: no index holds the pair; so
 * does a status filter, whose posts the planner finds from targets_org_status when the status is rare.
 */
function pageSql(filter: PostFilter, params: unknown[], limitSql: string, offsetSql: string | undefined): string {
  const param = (value: unknown) => `$${params.push(value)}`;
  const bySchedule = filter.scheduled.after !== undefined || filter.scheduled.before !== undefined;
  const pageRange = `LIMIT ${limitSql}${offsetSql === undefined ? '' : ` OFFSET ${offsetSql}`}`;
  if (bySchedule || filter.statuses || (filter.accountId === undefined && filter.tenantId === undefined)) {
    return `SELECT ${PAGE_COLUMNS} FROM posts p WHERE ${postWhere(filter, params, timeBound)} ORDER BY p.created_at DESC, p.id DESC ${pageRange}`;
  }
  const created = [
    ...(filter.created.after ? [`t.post_created_at > ${timeBound(param(filter.created.after))}`] : []),
    ...(filter.created.before ? [`t.post_created_at < ${timeBound(param(filter.created.before))}`] : []),
  ].map((condition) => ` AND ${condition}`).join('');
  const newest = `ORDER BY t.post_created_at DESC, t.post_id DESC`;
  let keys: string;
  if (filter.accountId !== undefined) {
    // The account is the org's (and carries the tenant): checked once, then its targets index only.
    const account = param(filter.accountId);
    const tenant = filter.tenantId === undefined ? '' : ` AND a.tenant_id = ${param(filter.tenantId)}`;
    keys = `SELECT t.post_id, t.post_created_at FROM targets t
             WHERE t.account_id = ${account}${created}
               AND EXISTS (SELECT 1 FROM social_accounts a WHERE a.id = ${account} AND a.org_id = $1${tenant})
             ${newest} ${pageRange}`;
  } else {
    const each = offsetSql === undefined ? limitSql : `(${limitSql}::int8 + ${offsetSql}::int8)`;
    keys = `SELECT k.post_id, max(k.post_created_at) AS post_created_at
              FROM social_accounts a
             CROSS JOIN LATERAL (SELECT t.post_id, t.post_created_at FROM targets t WHERE t.account_id = a.id${created} ${newest} LIMIT ${each}) AS k
             WHERE a.org_id = $1 AND a.tenant_id = ${param(filter.tenantId)}
             GROUP BY k.post_id
             ORDER BY 2 DESC, 1 DESC ${pageRange}`;
  }
  return `SELECT ${PAGE_COLUMNS} FROM (${keys}) AS k JOIN posts p ON p.id = k.post_id AND p.org_id = $1`;
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
    ...(query.status === undefined ? {} : { statuses: parseStatuses(query.status) }),
  };
}

/** `failed,unknown` -> the statuses, each once, in one order (one statement text per set). */
function parseStatuses(value: string): string[] {
  const given = value.split(',').map((status) => status.trim());
  const unknown = given.filter((status) => !(TARGET_STATUSES as readonly string[]).includes(status));
  if (unknown.length) {
    throw validationError([{ field: 'status', message: `${unknown.map((status) => JSON.stringify(status)).join(', ')} is not a destination status; one of: ${TARGET_STATUSES.join(', ')}, separated by commas` }]);
  }
  return TARGET_STATUSES.filter((status) => given.includes(status));
}

/** The spec accepts the encoded id or the raw number. */
function parseAccountId(value: string): number {
  const id = parseEncodedOrNumericId(value);
  if (id === undefined) {
    throw validationError([{ field: 'social_account_id', message: 'must be an account id from GET /v1/social-accounts or its numeric form' }]);
  }
  return id;
}
