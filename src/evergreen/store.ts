// The evergreen rows and their JSON (migration 034): collections, their items, and the posts (turns)
// the runner made from them.
import { encodeId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import type { Rule, Schedule } from '../recurrences/rule.ts';
import type { Variation } from '../recurrences/validate.ts';

/** Notified when a collection is created, resumed or given an item: the runner looks at once. */
export const EVERGREEN_CHANNEL = 'crier_evergreen';

export type CollectionStatus = 'active' | 'paused';

export interface CollectionRow {
  id: number;
  org_id: number;
  name: string;
  accounts: string[];
  rule: Rule | null;
  start_at: Date | null;
  min_gap_days: number;
  status: CollectionStatus;
  next_index: number;
  next_at: Date | null;
  materialize_at: Date | null;
  runs: number;
  skipped: number;
  waiting: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ItemRow {
  id: number;
  collection_id: number;
  position: number;
  post: Record<string, unknown>;
  variations: Variation[];
  last_used_at: Date | null;
  times_used: number;
  created_at: Date;
}

export interface TurnRow {
  run: number;
  item_id: number | null;
  scheduled_at: Date;
  variation: number | null;
  post_id: number | null;
  refused: string | null;
  created_at: Date;
}

/** At most this many items in a collection: a pool to recycle, not an archive. */
export const MAX_ITEMS = 500;
/** The collection's most recent turns in its JSON; older ones are still ordinary posts (GET /v1/posts). */
export const TURNS_SHOWN = 20;

export const COLLECTION_COLUMNS = 'id::int, org_id::int, name, accounts, rule, start_at, min_gap_days, status, next_index, next_at, materialize_at, runs, skipped, waiting, created_at, updated_at';
export const ITEM_COLUMNS = 'id::int, collection_id::int, position, post, variations, last_used_at, times_used, created_at';

/** A rule collection's schedule for rule.ts: no count and no end (a collection runs until paused or deleted). */
export function scheduleOf(row: CollectionRow & { rule: Rule; start_at: Date }): Schedule {
  return { rule: row.rule, startAt: row.start_at, count: null, until: null };
}

export async function selectCollection(db: Queryable, orgId: number, id: number, lock = ''): Promise<CollectionRow | undefined> {
  const { rows } = await db.query<CollectionRow>(`SELECT ${COLLECTION_COLUMNS} FROM evergreen_collections WHERE id = $1 AND org_id = $2 ${lock}`, [id, orgId]);
  return rows[0];
}

export async function selectItems(db: Queryable, collectionId: number): Promise<ItemRow[]> {
  const { rows } = await db.query<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM evergreen_items WHERE collection_id = $1 ORDER BY position`, [collectionId]);
  return rows;
}

export async function selectTurns(db: Queryable, collectionId: number): Promise<TurnRow[]> {
  const { rows } = await db.query<TurnRow>(
    `SELECT run, item_id::int, scheduled_at, variation, post_id::int, refused, created_at FROM evergreen_posts
      WHERE collection_id = $1 ORDER BY run DESC LIMIT $2`,
    [collectionId, TURNS_SHOWN],
  );
  return rows;
}

export interface CollectionJson {
  id: string;
  name: string;
  status: CollectionStatus;
  [field: string]: unknown;
}

/** The collection's settings and where it stands; `items` and `latestPosts` on a single read. */
export function toCollectionJson(row: CollectionRow, itemCount: number, detail?: { items: ItemRow[]; turns: TurnRow[] }): CollectionJson {
  return {
    id: encodeId(row.id),
    name: row.name,
    status: row.status,
    accounts: row.accounts,
    ...(row.rule ?? { queue: true }),
    startAt: row.start_at?.toISOString() ?? null,
    minGapDays: row.min_gap_days,
    nextRunAt: row.status === 'active' ? row.materialize_at?.toISOString() ?? null : null,
    nextOccurrenceAt: row.next_at?.toISOString() ?? null,
    waiting: row.waiting,
    turns: row.runs,
    occurrencesSkipped: row.skipped,
    itemCount,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(detail ? { items: detail.items.map(toItemJson), latestPosts: detail.turns.map(toTurnJson) } : {}),
  };
}

/** The item's post body as sent, its variations, and how often and when it was last used. */
export function toItemJson(row: ItemRow): Record<string, unknown> {
  return {
    id: encodeId(row.id),
    position: row.position,
    ...row.post,
    variations: row.variations,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    timesUsed: row.times_used,
    createdAt: row.created_at.toISOString(),
  };
}

function toTurnJson(row: TurnRow) {
  return {
    turn: row.run,
    itemId: row.item_id === null ? null : encodeId(row.item_id),
    scheduledAt: row.scheduled_at.toISOString(),
    postId: row.post_id === null ? null : encodeId(row.post_id),
    variation: row.variation,
    refused: row.refused,
    createdAt: row.created_at.toISOString(),
  };
}
