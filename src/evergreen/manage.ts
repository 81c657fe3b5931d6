// /v1/evergreen-collections as the domain sees it: create (each item judged as the post it will
// become), list, get, change the name, gap or status, delete; add, list and remove items. The posts
// themselves are created by the runner (runner.ts).
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { withTransaction, type Db, type Queryable, type Tx } from '../db/pool.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { accountProblem } from '../posts/create.ts';
import { resolveAccounts, type ResolvedAccount } from '../posts/accounts.ts';
import { cancelUnstartedPosts } from '../posts/manage.ts';
import { firstOccurrence } from '../recurrences/rule.ts';
import { parseCollectionBody, parseCollectionPatch, parseItem, type ItemInput } from './validate.ts';
import {
  COLLECTION_COLUMNS, EVERGREEN_CHANNEL, ITEM_COLUMNS, MAX_ITEMS, selectCollection, selectItems, selectTurns, toCollectionJson, toItemJson,
  type CollectionJson, type CollectionRow, type ItemRow,
} from './store.ts';

const notFound = () => new RequestError(404, 'Evergreen collection not found', { code: 'not_found' });
const itemNotFound = () => new RequestError(404, 'Item not found in this evergreen collection', { code: 'not_found' });

export interface Created<T> {
  data: T;
  warnings: string[];
}

/**
 * Stores a collection whose every item (and variation) would be a valid post for its accounts now,
 * so a bad item is a 400 here, not a refused turn later. The accounts are stored as the ids they resolved to.
 */
export async function createCollection(db: Db, orgId: number, body: unknown, now: Date, fetch: FetchPolicy): Promise<Created<CollectionJson>> {
  const parsed = parseCollectionBody(body, now, fetch);
  if (!parsed.ok) throw validationError(parsed.details);
  const input = parsed.value;
  const accounts = await resolveCollectionAccounts(db, orgId, input.accounts);
  judgeItems(input.items, accounts, (i) => `items[${i}].`);
  const first = input.rule ? firstOccurrence({ rule: input.rule, startAt: input.startAt!, count: null, until: null }) ?? null : null;
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<CollectionRow>(
      `INSERT INTO evergreen_collections (org_id, name, accounts, rule, start_at, min_gap_days, status, next_at, materialize_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLLECTION_COLUMNS}`,
      [orgId, input.name, JSON.stringify(accounts.map((a) => encodeId(a.id))), input.rule, input.startAt, input.minGapDays, input.status, first, now],
    );
    const row = rows[0]!;
    const items = await insertItems(tx, row, input.items);
    await tx.query(`SELECT pg_notify('${EVERGREEN_CHANNEL}', '')`);
    return { data: toCollectionJson(row, items.length, { items, turns: [] }), warnings: input.items.flatMap((item) => item.warnings) };
  });
}

export async function listCollections(db: Queryable, orgId: number, query: { limit?: number; offset?: number }): Promise<{ data: CollectionJson[]; total: number }> {
  const { rows } = await db.query<CollectionRow & { total: number; item_count: number }>(
    `SELECT ${COLLECTION_COLUMNS}, count(*) OVER ()::int AS total,
            (SELECT count(*)::int FROM evergreen_items i WHERE i.collection_id = c.id) AS item_count
       FROM evergreen_collections c WHERE org_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [orgId, query.limit ?? 50, query.offset ?? 0],
  );
  const total = rows[0]?.total ?? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM evergreen_collections WHERE org_id = $1', [orgId])).rows[0]!.n;
  return { data: rows.map((row) => toCollectionJson(row, row.item_count)), total };
}

export async function getCollection(db: Queryable, orgId: number, encodedId: string): Promise<CollectionJson> {
  return detailed(db, await requireCollection(db, orgId, encodedId));
}

/**
 * PATCH: the name, `minGapDays` (the next turn judges by the new gap) or `status`. Pausing stops new
 * posts (one already created stays an ordinary scheduled post); resuming looks again at once.
 */
export async function updateCollection(db: Db, orgId: number, encodedId: string, body: unknown): Promise<CollectionJson> {
  const parsed = parseCollectionPatch(body);
  if (!parsed.ok) throw validationError(parsed.details);
  const change = parsed.value;
  const row = await withTransaction(db, async (tx) => {
    const current = await requireCollection(tx, orgId, encodedId, 'FOR UPDATE');
    const { rows } = await tx.query<CollectionRow>(
      `UPDATE evergreen_collections SET name = coalesce($2, name), min_gap_days = coalesce($3, min_gap_days), status = coalesce($4, status),
              materialize_at = CASE WHEN $5 THEN least(coalesce(materialize_at, now()), now()) ELSE materialize_at END, updated_at = now()
        WHERE id = $1 RETURNING ${COLLECTION_COLUMNS}`,
      // Looked at again at once when a waiting collection is resumed or its gap changes: the reason may be gone.
      [current.id, change.name ?? null, change.minGapDays ?? null, change.status ?? null, current.waiting !== null || (current.status === 'paused' && change.status === 'active')],
    );
    await tx.query(`SELECT pg_notify('${EVERGREEN_CHANNEL}', '')`);
    return rows[0]!;
  });
  return detailed(db, row);
}

/**
 * DELETE: no post is created any more, and the posts created from it that have not started
 * publishing are cancelled; the published ones stay, as ordinary posts. Their ids are returned.
 */
export async function deleteCollection(db: Db, orgId: number, encodedId: string): Promise<{ cancelledPostIds: string[] }> {
  return withTransaction(db, async (tx) => {
    const row = await requireCollection(tx, orgId, encodedId, 'FOR UPDATE');
    const { rows: made } = await tx.query<{ post_id: number }>('SELECT post_id FROM evergreen_posts WHERE collection_id = $1 AND post_id IS NOT NULL', [row.id]);
    const cancelled = await cancelUnstartedPosts(tx, orgId, made.map((m) => Number(m.post_id)));
    await tx.query('DELETE FROM evergreen_collections WHERE id = $1', [row.id]);
    return { cancelledPostIds: cancelled.map(encodeId) };
  });
}

/** POST .../items: one more item, judged against the collection's accounts; last in position. */
export async function addItem(db: Db, orgId: number, encodedId: string, body: unknown, now: Date, fetch: FetchPolicy): Promise<Created<Record<string, unknown>>> {
  const collection = await requireCollection(db, orgId, encodedId);
  const parsed = parseItem(body, collection.accounts, now, fetch);
  if (!parsed.ok) throw validationError(parsed.details);
  const accounts = await resolveCollectionAccounts(db, orgId, collection.accounts);
  judgeItems([parsed.value], accounts, () => '');
  const item = await withTransaction(db, async (tx) => {
    const row = await requireCollection(tx, orgId, encodedId, 'FOR UPDATE');
    const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM evergreen_items WHERE collection_id = $1', [row.id]);
    if (rows[0]!.n >= MAX_ITEMS) throw validationError([{ field: '(body)', message: `this collection has ${MAX_ITEMS} items, the most it may hold: remove one first` }]);
    const [inserted] = await insertItems(tx, row, [parsed.value]);
    // A collection waiting for an eligible item looks again at once: this one has never been used.
    await tx.query(
      `UPDATE evergreen_collections SET materialize_at = least(coalesce(materialize_at, now()), now()), updated_at = now()
        WHERE id = $1 AND waiting IS NOT NULL`,
      [row.id],
    );
    await tx.query(`SELECT pg_notify('${EVERGREEN_CHANNEL}', '')`);
    return inserted!;
  });
  return { data: toItemJson(item), warnings: parsed.value.warnings };
}

export async function listItems(db: Queryable, orgId: number, encodedId: string): Promise<Record<string, unknown>[]> {
  const collection = await requireCollection(db, orgId, encodedId);
  return (await selectItems(db, collection.id)).map(toItemJson);
}

/** DELETE .../items/:itemId: never used again; a post already created from it stays, as an ordinary post. */
export async function removeItem(db: Queryable, orgId: number, encodedId: string, encodedItemId: string): Promise<void> {
  const collection = await requireCollection(db, orgId, encodedId);
  const itemId = decodeId(encodedItemId);
  const { rowCount } = itemId === undefined ? { rowCount: 0 } : await db.query('DELETE FROM evergreen_items WHERE id = $1 AND collection_id = $2', [itemId, collection.id]);
  if (!rowCount) throw itemNotFound();
}

async function detailed(db: Queryable, row: CollectionRow): Promise<CollectionJson> {
  const [items, turns] = await Promise.all([selectItems(db, row.id), selectTurns(db, row.id)]);
  return toCollectionJson(row, items.length, { items, turns });
}

async function requireCollection(db: Queryable, orgId: number, encodedId: string, lock = ''): Promise<CollectionRow> {
  const id = decodeId(encodedId);
  const row = id === undefined ? undefined : await selectCollection(db, orgId, id, lock);
  if (!row) throw notFound();
  return row;
}

async function resolveCollectionAccounts(db: Queryable, orgId: number, entries: string[]): Promise<ResolvedAccount[]> {
  const [accounts] = await resolveAccounts(db, [{ orgId, entries }]);
  if (accounts!.length === 0) {
    throw new RequestError(400, 'No account in "accounts" matches a connected social account', {
      code: 'no_account_resolved',
      details: [{ field: 'accounts', message: 'no entry matches an account id or exact username of this organization' }],
    });
  }
  return accounts!;
}

/** Every content of every item judged against the resolved accounts (the networks' rules), as its post would be. */
function judgeItems(items: ItemInput[], accounts: ResolvedAccount[], prefix: (i: number) => string): void {
  const issues: FieldIssue[] = [];
  items.forEach((item, i) => {
    item.requests.forEach((request, v) => {
      const problem = accountProblem(request, accounts);
      const at = v === 0 ? prefix(i) : `${prefix(i)}variations[${v - 1}].`;
      issues.push(...(problem?.details ?? []).map((issue) => ({ field: `${at}${issue.field}`, message: issue.message })));
    });
  });
  if (issues.length) throw validationError(issues);
}

async function insertItems(tx: Tx, collection: CollectionRow, items: ItemInput[]): Promise<ItemRow[]> {
  if (items.length === 0) return [];
  const { rows } = await tx.query<ItemRow>(
    `INSERT INTO evergreen_items (collection_id, org_id, position, post, variations)
     SELECT $1, $2, coalesce((SELECT max(position) FROM evergreen_items WHERE collection_id = $1), 0) + n, post, variations
       FROM unnest($3::jsonb[], $4::jsonb[]) WITH ORDINALITY AS u(post, variations, n)
     RETURNING ${ITEM_COLUMNS}`,
    [collection.id, collection.org_id, items.map((item) => JSON.stringify(item.post)), items.map((item) => JSON.stringify(item.variations))],
  );
  return rows.sort((a, b) => a.position - b.position);
}
