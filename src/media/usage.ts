// What an organization was billed for: one usage record per rendition processMedia made, counted in
// 10-second blocks of output (renditions.ts). Totals cover the whole period; the list is paginated.
import type { Queryable } from '../db/pool.ts';
import { validationError } from '../core/errors.ts';
import { parseDateOrDateTime } from '../validation/date-time.ts';

export interface UsageQuery {
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export interface UsageItem {
  id: number;
  kind: 'video_rendition';
  rendition_id: number;
  profile: string;
  source_url: string;
  duration_seconds: number;
  blocks: number;
  created_at: string;
}

export async function usageReport(db: Queryable, orgId: number, query: UsageQuery) {
  // The route's schema has checked both with the same parser, so they parse.
  const from = query.from === undefined ? null : parseDateOrDateTime(query.from)!;
  const to = query.to === undefined ? null : parseDateOrDateTime(query.to)!;
  if (from && to && from > to) throw validationError([{ field: 'from', message: 'must not be after `to`' }]);
  // [from, to): a month is from=<first day> to=<first day of the next month>.
  const period = 'org_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)';
  const totals = await db.query<{ blocks: number; renditions: number; duration_ms: number }>(
    `SELECT coalesce(sum(blocks), 0)::int AS blocks, count(*)::int AS renditions, coalesce(sum(duration_ms), 0)::bigint AS duration_ms
       FROM usage_records WHERE ${period}`,
    [orgId, from, to],
  );
  const page = await db.query<{ id: number; kind: 'video_rendition'; rendition_id: number; profile: string; source_url: string; duration_ms: number; blocks: number; created_at: Date }>(
    `SELECT id, kind, rendition_id, profile, source_url, duration_ms, blocks, created_at FROM usage_records
      WHERE ${period} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
    [orgId, from, to, query.limit, query.offset],
  );
  const t = totals.rows[0]!;
  const items: UsageItem[] = page.rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    rendition_id: r.rendition_id,
    profile: r.profile,
    source_url: r.source_url,
    duration_seconds: r.duration_ms / 1000,
    blocks: r.blocks,
    created_at: r.created_at.toISOString(),
  }));
  return {
    data: {
      from: from?.toISOString() ?? null,
      to: to?.toISOString() ?? null,
      total_blocks: t.blocks,
      total_renditions: t.renditions,
      total_duration_seconds: Number(t.duration_ms) / 1000,
      items,
    },
    count: t.renditions,
    limit: query.limit,
    offset: query.offset,
  };
}
