// Database rows -> the API's Post object (encoded ids, ISO dates, `<network>Configuration` keys).
import { encodeId } from '../core/ids.ts';

export interface TargetRow {
  id: number;
  network: string;
  username: string;
  nickname: string;
  status?: string;
  error?: string | null;
  platform_post_id?: string | null;
  platform_post_url?: string | null;
  published_at?: string | Date | null;
  /** The destination's latest edit on its network (PATCH /v1/posts/:id/remote), and each edited part's text. */
  edited_at?: string | Date | null;
  edited_parts?: EditedPart[] | null;
}

export interface EditedPart {
  position: number;
  content: string;
}

export interface PostRow {
  id: number;
  org_id: number;
  published_at: Date | string | null;
  scheduled_at: Date | string | null;
  is_draft: boolean;
  created_at: Date | string;
  network_options: Record<string, unknown> | null;
  process_media: boolean;
  queued: boolean;
  /** Null when no approval was asked (migration 031). */
  approval?: 'pending' | 'approved' | 'rejected' | null;
  approval_decided_at?: Date | string | null;
  approval_decided_by?: number | null;
  approval_reason?: string | null;
  /** The recurrence this post is an occurrence of. */
  recurrence_id?: number | null;
  /** The evergreen collection this post re-shares an item of. */
  evergreen_collection_id?: number | null;
  accounts: TargetRow[];
  containers: { id: number; content: string; media: { id: number; url: string; filename: string; altText: string | null }[] }[];
}

export interface AccountRefJson {
  id: string;
  nickname: string;
  network: string;
  username: string;
}

export interface TargetJson extends AccountRefJson {
  status: string;
  error: string | null;
  platformPostId: string | null;
  platformPostUrl: string | null;
  publishedAt: string | null;
  editedAt: string | null;
  /** What the network shows since an edit, for each edited container by position; null: never edited. */
  editedContainers: EditedPart[] | null;
}

/** A post's approval: asked when its organization (or a tenant of its accounts) required it. */
export interface ApprovalJson {
  status: 'pending' | 'approved' | 'rejected';
  decidedAt: string | null;
  /** The key that decided (GET /v1/api-keys), null while pending or once that key was deleted. */
  decidedBy: string | null;
  /** A rejection's reason, as the approver gave it. */
  reason: string | null;
}

export interface PostJson {
  id: string;
  orgId: string;
  publishedAt: string | null;
  scheduledAt: string | null;
  isDraft: boolean;
  createdAt: string;
  socialAccounts: AccountRefJson[] | TargetJson[];
  containers: { id: string; content: string; media: { id: number; url: string; filename: string; altText: string | null }[] }[];
  networkOverrideConfiguration: Record<string, unknown> | null;
  processMedia: boolean;
  scheduled: boolean;
  approval: ApprovalJson | null;
  recurrenceId: string | null;
  evergreenCollectionId: string | null;
}

/**
 * `withStatus` adds each account's publishing state (GET /v1/posts/:id). Keys come in the order of the
 * response schema (schema.ts), so JSON.stringify writes what the schema's serializer would (the list
 * serializes its page once with it and sends it as both `posts` and `data`).
 */
export function toPostJson(row: PostRow, withStatus = false): PostJson {
  return {
    id: encodeId(row.id),
    orgId: encodeId(row.org_id),
    publishedAt: iso(row.published_at),
    scheduledAt: iso(row.scheduled_at),
    isDraft: row.is_draft,
    createdAt: iso(row.created_at)!,
    containers: row.containers.map((c) => ({ id: encodeId(c.id), content: c.content, media: c.media })),
    networkOverrideConfiguration: overrideConfiguration(row.network_options),
    processMedia: row.process_media,
    scheduled: row.queued,
    approval: approvalJson(row),
    recurrenceId: row.recurrence_id == null ? null : encodeId(row.recurrence_id),
    evergreenCollectionId: row.evergreen_collection_id == null ? null : encodeId(row.evergreen_collection_id),
    socialAccounts: row.accounts.map((a) => (withStatus ? targetJson(a) : accountRef(a))),
  };
}

function approvalJson(row: PostRow): ApprovalJson | null {
  if (!row.approval) return null;
  return {
    status: row.approval,
    decidedAt: iso(row.approval_decided_at ?? null),
    decidedBy: row.approval_decided_by == null ? null : encodeId(row.approval_decided_by),
    reason: row.approval_reason ?? null,
  };
}

function accountRef(a: TargetRow): AccountRefJson {
  return { id: encodeId(a.id), nickname: a.nickname, network: a.network, username: a.username };
}

function targetJson(a: TargetRow): TargetJson {
  return {
    ...accountRef(a),
    status: a.status ?? 'pending',
    error: a.error ?? null,
    platformPostId: a.platform_post_id ?? null,
    platformPostUrl: a.platform_post_url ?? null,
    publishedAt: iso(a.published_at ?? null),
    editedAt: iso(a.edited_at ?? null),
    editedContainers: a.edited_parts ?? null,
  };
}

/** The stored blocks keyed as the spec's response shows them: `tiktok` -> `tiktokConfiguration`. */
function overrideConfiguration(options: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!options || Object.keys(options).length === 0) return null;
  return Object.fromEntries(Object.entries(options).map(([network, block]) => [`${network}Configuration`, block]));
}

/** A timestamp in UTC as PostgreSQL writes it in JSON (`t AT TIME ZONE 'UTC'`): 2026-11-24T09:31:29.621209. */
const PG_JSON_UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?$/;
/** The same with any year, before year 1 too (`... BC`). */
const PG_JSON_UTC_TIMESTAMP_ANY_YEAR = /^(\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?( BC)?$/;

/**
 * ISO 8601 with milliseconds, as Date#toISOString writes it. A list reads its timestamps as JSON text
 * in UTC (list.ts), rewritten here without building a Date: the fraction truncated to milliseconds,
 * as parsing it into a Date did. Other text (JSON of a timestamptz, with its offset, as a post's
 * targets carry it in read.ts) goes through a Date.
 */
function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  const utc = PG_JSON_UTC_TIMESTAMP.exec(value);
  if (utc) return `${utc[1]}.${((utc[2] ?? '') + '000').slice(0, 3)}Z`;
  return (dateOfUtcJson(value) ?? new Date(value)).toISOString();
}

/** Years past 9999 or before year 1 in UTC without an offset, which Date#toISOString writes in its own extended form. */
function dateOfUtcJson(value: string): Date | undefined {
  const parts = PG_JSON_UTC_TIMESTAMP_ANY_YEAR.exec(value);
  if (!parts) return undefined;
  const [, year, month, day, hours, minutes, seconds, fraction, bc] = parts;
  const date = new Date(0);
  date.setUTCFullYear(bc ? 1 - Number(year) : Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hours), Number(minutes), Number(seconds), Number(((fraction ?? '') + '000').slice(0, 3)));
  return date;
}
