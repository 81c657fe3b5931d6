// The recurrence rows and their JSON (migration 033): what the API and the runner read and write.
import { encodeId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import type { Rule, Schedule } from './rule.ts';
import type { Variation } from './validate.ts';

/** Notified when a recurrence is created or resumed: the runner looks at once. */
export const RECURRENCES_CHANNEL = 'crier_recurrences';

export type RecurrenceStatus = 'active' | 'paused' | 'completed';

export interface RecurrenceRow {
  id: number;
  org_id: number;
  post: Record<string, unknown>;
  variations: Variation[];
  rule: Rule;
  start_at: Date;
  occurrence_count: number | null;
  until_at: Date | null;
  status: RecurrenceStatus;
  next_index: number;
  next_at: Date | null;
  materialize_at: Date | null;
  created_posts: number;
  skipped: number;
  created_at: Date;
  updated_at: Date;
}

export interface OccurrenceRow {
  occurrence_index: number;
  scheduled_at: Date;
  variation: number | null;
  post_id: number | null;
  refused: string | null;
}

export function scheduleOf(row: RecurrenceRow): Schedule {
  return { rule: row.rule, startAt: row.start_at, count: row.occurrence_count, until: row.until_at };
}

/** The recurrence's most recent occurrences in its JSON; older ones are still ordinary posts (GET /v1/posts). */
export const OCCURRENCES_SHOWN = 100;

export async function selectOccurrences(db: Queryable, recurrenceId: number): Promise<OccurrenceRow[]> {
  const { rows } = await db.query<OccurrenceRow>(
    `SELECT * FROM (SELECT occurrence_index, scheduled_at, variation, post_id, refused FROM recurrence_occurrences
                     WHERE recurrence_id = $1 ORDER BY occurrence_index DESC LIMIT $2) o ORDER BY occurrence_index`,
    [recurrenceId, OCCURRENCES_SHOWN],
  );
  return rows;
}

export interface RecurrenceJson {
  id: string;
  status: RecurrenceStatus;
  [postField: string]: unknown;
}

/** The post body as sent (accounts as ids), the rule's fields, and where the recurrence stands. */
export function toRecurrenceJson(row: RecurrenceRow, occurrences?: OccurrenceRow[]): RecurrenceJson {
  return {
    id: encodeId(row.id),
    status: row.status,
    ...row.post,
    ...row.rule,
    startAt: row.start_at.toISOString(),
    count: row.occurrence_count,
    until: row.until_at?.toISOString() ?? null,
    variations: row.variations,
    nextOccurrenceAt: row.next_at?.toISOString() ?? null,
    nextOccurrenceIndex: row.status === 'completed' ? null : row.next_index,
    postsCreated: row.created_posts,
    occurrencesSkipped: row.skipped,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(occurrences ? { occurrences: occurrences.map(toOccurrenceJson) } : {}),
  };
}

function toOccurrenceJson(row: OccurrenceRow) {
  return {
    index: row.occurrence_index,
    scheduledAt: row.scheduled_at.toISOString(),
    postId: row.post_id === null ? null : encodeId(row.post_id),
    variation: row.variation,
    refused: row.refused,
  };
}
