// The bodies of /v1/evergreen-collections, field by field: the collection's own fields, its schedule
// (the accounts' queue, or a recurrence rule parsed by recurrences/validate.ts), and each item as the
// post it will become (the posts' own parser with the collection's accounts, each variation likewise).
import type { FieldIssue } from '../core/errors.ts';
import { DATE_TIME_MESSAGE, parseDateTime } from '../validation/date-time.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { isPlainObject } from '../validation/strip.ts';
import { parseCreateBody, type CreateRequest } from '../posts/validate.ts';
import { MAX_ACCOUNTS } from '../posts/schema.ts';
import type { Rule } from '../recurrences/rule.ts';
import { parseRule, parseVariations, type Variation } from '../recurrences/validate.ts';
import { MAX_ITEMS, type CollectionStatus } from './store.ts';

export const DEFAULT_MIN_GAP_DAYS = 30;
export const MAX_MIN_GAP_DAYS = 3650;
/** Items sent with the collection itself; more are added one by one. */
export const MAX_ITEMS_ON_CREATE = 100;
/** A startAt this far in the past is still "now" (a client's clock, a slow request). */
const PAST_TOLERANCE_MS = 5 * 60_000;

const COLLECTION_FIELDS = ['name', 'accounts', 'queue', 'every', 'weekly', 'startAt', 'minGapDays', 'status', 'items'];
const PATCH_FIELDS = ['name', 'minGapDays', 'status'];
/** Fields of a post body that the collection sets for every item's post. */
const SET_BY_COLLECTION: Record<string, string> = {
  accounts: 'is the collection\'s: every item goes to the collection\'s "accounts"',
  scheduledAt: 'is set by the collection\'s schedule for each post',
  isDraft: 'an evergreen item has no drafts: pause the collection instead',
};

export interface ItemInput {
  /** The post body without accounts (content or containers, network blocks). */
  post: Record<string, unknown>;
  variations: Variation[];
  /** The parsed post of each content (the item's own first): judged against the accounts once resolved. */
  requests: CreateRequest[];
  warnings: string[];
}

export interface CollectionInput {
  name: string;
  accounts: string[];
  /** null: the accounts' queue slots. */
  rule: Rule | null;
  startAt: Date | null;
  minGapDays: number;
  status: CollectionStatus;
  items: ItemInput[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; details: FieldIssue[] };

export function parseCollectionBody(body: unknown, now: Date, fetch: FetchPolicy): Parsed<CollectionInput> {
  if (!isPlainObject(body)) return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object' }] };
  const details: FieldIssue[] = unknownFields(body, COLLECTION_FIELDS, 'is not a field of an evergreen collection');
  const name = parseName(body.name, details);
  const accounts = parseAccounts(body.accounts, details);
  const schedule = parseSchedule(body, now, details);
  const minGapDays = body.minGapDays === undefined ? DEFAULT_MIN_GAP_DAYS : parseGap(body.minGapDays, details);
  const status = body.status === undefined ? 'active' : parseStatus(body.status, details);
  const items = parseItems(body.items, accounts ?? ['(the collection\'s accounts)'], now, fetch, details);
  if (details.length || name === undefined || !accounts || !schedule || minGapDays === undefined || !status || !items) return { ok: false, details };
  return { ok: true, value: { name, accounts, ...schedule, minGapDays, status, items } };
}

/** PATCH: the name, the gap and the status; anything else is a per-field 400. */
export function parseCollectionPatch(body: unknown): Parsed<{ name?: string; minGapDays?: number; status?: CollectionStatus }> {
  if (!isPlainObject(body)) return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object such as {"status": "paused"}' }] };
  const details = unknownFields(body, PATCH_FIELDS, 'cannot be changed: an evergreen collection changes its name, minGapDays and status (create a new one for other accounts or another schedule; add and remove items under /items)');
  if (Object.keys(body).length === 0) details.push({ field: '(body)', message: 'send at least one of "name", "minGapDays", "status"' });
  const name = body.name === undefined ? undefined : parseName(body.name, details);
  const minGapDays = body.minGapDays === undefined ? undefined : parseGap(body.minGapDays, details);
  const status = body.status === undefined ? undefined : parseStatus(body.status, details);
  if (details.length) return { ok: false, details };
  return { ok: true, value: { ...(name !== undefined ? { name } : {}), ...(minGapDays !== undefined ? { minGapDays } : {}), ...(status ? { status } : {}) } };
}

/** One item (POST .../items, or `items[i]` of a create): judged as its post to the collection's accounts. */
export function parseItem(value: unknown, accounts: string[], now: Date, fetch: FetchPolicy, field = ''): Parsed<ItemInput> {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  if (!isPlainObject(value)) return { ok: false, details: [{ field: field || '(body)', message: 'must be a post body: {"content": "..."} or {"containers": [...]}, with network blocks and "variations" if any' }] };
  const details: FieldIssue[] = Object.keys(SET_BY_COLLECTION).filter((key) => value[key] !== undefined).map((key) => ({ field: at(key), message: SET_BY_COLLECTION[key]! }));
  const { variations: sentVariations, accounts: _a, scheduledAt: _s, isDraft: _d, ...post } = value;
  const body = { ...post, accounts };
  const parsed = parseCreateBody(body, now, fetch);
  if (!parsed.ok) details.push(...parsed.details.map((issue) => ({ field: at(issue.field), message: issue.message })));
  const variationIssues: FieldIssue[] = [];
  const variations = parseVariations(sentVariations, body, now, fetch, variationIssues);
  details.push(...variationIssues.map((issue) => ({ field: at(issue.field), message: issue.message })));
  if (details.length || !parsed.ok || !variations) return { ok: false, details };
  return {
    ok: true,
    value: { post, variations: variations.map((v) => v.variation), requests: [parsed.request, ...variations.map((v) => v.request)], warnings: parsed.request.warnings },
  };
}

function parseItems(value: unknown, accounts: string[], now: Date, fetch: FetchPolicy, details: FieldIssue[]): ItemInput[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ITEMS_ON_CREATE) {
    details.push({ field: 'items', message: `must be a list of at most ${MAX_ITEMS_ON_CREATE} post bodies (add more with POST /v1/evergreen-collections/{id}/items, up to ${MAX_ITEMS})` });
    return undefined;
  }
  const items: ItemInput[] = [];
  value.forEach((item: unknown, i) => {
    const parsed = parseItem(item, accounts, now, fetch, `items[${i}]`);
    if (parsed.ok) items.push(parsed.value);
    else details.push(...parsed.details);
  });
  return items.length === value.length ? items : undefined;
}

function parseSchedule(body: Record<string, unknown>, now: Date, details: FieldIssue[]): { rule: Rule | null; startAt: Date | null } | undefined {
  const sent = ['queue', 'every', 'weekly'].filter((key) => body[key] !== undefined);
  if (sent.length !== 1) {
    details.push({ field: 'queue', message: 'send exactly one of "queue": true (each post takes the accounts\' next free queue slot), "every" (an interval) or "weekly" (days at a local time)' });
    return undefined;
  }
  if (body.queue !== undefined) {
    if (body.queue !== true) details.push({ field: 'queue', message: 'must be true (or send "every" or "weekly" instead)' });
    if (body.startAt !== undefined) details.push({ field: 'startAt', message: 'belongs to a rule ("every" or "weekly"); a queue collection takes the next free slot' });
    return body.queue === true && body.startAt === undefined ? { rule: null, startAt: null } : undefined;
  }
  const rule = parseRule(body, details);
  const startAt = body.startAt === undefined ? now : typeof body.startAt === 'string' ? parseDateTime(body.startAt) : undefined;
  if (!startAt) details.push({ field: 'startAt', message: DATE_TIME_MESSAGE });
  else if (startAt.getTime() < now.getTime() - PAST_TOLERANCE_MS) details.push({ field: 'startAt', message: 'must not be in the past' });
  return rule && startAt ? { rule, startAt } : undefined;
}

function parseName(value: unknown, details: FieldIssue[]): string | undefined {
  if (typeof value === 'string' && value.trim().length >= 1 && value.length <= 200) return value.trim();
  details.push({ field: 'name', message: 'must be a name of 1 to 200 characters' });
  return undefined;
}

function parseAccounts(value: unknown, details: FieldIssue[]): string[] | undefined {
  if (Array.isArray(value) && value.length >= 1 && value.length <= MAX_ACCOUNTS && value.every((a) => typeof a === 'string' && a.length >= 1 && a.length <= 255)) return value as string[];
  details.push({ field: 'accounts', message: `must be a list of 1 to ${MAX_ACCOUNTS} account ids or usernames, as a post's "accounts"` });
  return undefined;
}

function parseGap(value: unknown, details: FieldIssue[]): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_MIN_GAP_DAYS) return value;
  details.push({ field: 'minGapDays', message: `must be a whole number of days from 0 to ${MAX_MIN_GAP_DAYS}` });
  return undefined;
}

function parseStatus(value: unknown, details: FieldIssue[]): CollectionStatus | undefined {
  if (value === 'active' || value === 'paused') return value;
  details.push({ field: 'status', message: 'must be "active" or "paused"' });
  return undefined;
}

function unknownFields(body: Record<string, unknown>, allowed: string[], message: string): FieldIssue[] {
  return Object.keys(body).filter((key) => !allowed.includes(key)).map((field) => ({ field, message: field === 'content' || field === 'containers' ? `${message}; a collection's posts are its "items"` : message }));
}
