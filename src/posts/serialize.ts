// Database rows -> the API's Post object (encoded ids, ISO dates, `<network>Configuration` keys).
import pg from 'pg';
import { encodeId } from '../ids.ts';

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
    socialAccounts: row.accounts.map((a) => (withStatus ? targetJson(a) : accountRef(a))),
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
  };
}

/** The stored blocks keyed as the spec's response shows them: `tiktok` -> `tiktokConfiguration`. */
function overrideConfiguration(options: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!options || Object.keys(options).length === 0) return null;
  return Object.fromEntries(Object.entries(options).map(([network, block]) => [`${network}Configuration`, block]));
}

/** PostgreSQL's text of a timestamptz in a UTC session (its ISO DateStyle): 2026-11-24 09:31:29.621209+00. */
const PG_UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * ISO 8601 with milliseconds, as Date#toISOString writes it. PostgreSQL's own text (a list reads its
 * timestamps raw, see RAW_TIMESTAMPS) is rewritten without building a Date: the fraction truncated to
 * milliseconds, which is what parsing it into a Date did. Anything else goes through a Date.
 */
function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  const raw = PG_UTC_TIMESTAMP.exec(value);
  if (raw) return `${raw[1]}T${raw[2]}.${((raw[3] ?? '') + '000').slice(0, 3)}Z`;
  // Another session time zone, or a timestamp inside JSON (2026-11-24T09:31:29.621209+00:00).
  return (PG_TIMESTAMP_TEXT.test(value) ? parsePgTimestamp(value) : new Date(value)).toISOString();
}

const PG_TIMESTAMP_TEXT = /^\d{4,}-\d\d-\d\d \d/;
const parsePgTimestamp = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;

/** Query types that leave timestamptz as PostgreSQL's text, for iso() to rewrite (everything else as usual). */
export const RAW_TIMESTAMPS = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((text: string) => unknown) =>
    oid === pg.types.builtins.TIMESTAMPTZ ? (text) => text : (pg.types.getTypeParser as (oid: number, format?: string) => (text: string) => unknown)(oid, format),
};
