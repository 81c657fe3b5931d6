// /v1/recurrences as the domain sees it: create (judged as its posts will be), list, get, pause and
// resume or change the content to come, delete. The occurrences themselves are created by the runner (runner.ts).
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { withTransaction, type Db, type Queryable, type Tx } from '../db/pool.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { accountProblem } from '../posts/create.ts';
import { resolveAccounts, type ResolvedAccount } from '../posts/accounts.ts';
import { NETWORKS } from '../networks/ids.ts';
import { cancelUnstartedPosts } from '../posts/manage.ts';
import { SCHEDULE_HORIZON_MS, type CreateRequest } from '../posts/validate.ts';
import { firstOccurrence } from './rule.ts';
import { CONTENT_FIELDS, parseContentChange, parseRecurrenceBody } from './validate.ts';
import { RECURRENCES_CHANNEL, selectOccurrences, toRecurrenceJson, type RecurrenceJson, type RecurrenceRow } from './store.ts';

const notFound = () => new RequestError(404, 'Recurrence not found', { code: 'not_found' });

export interface Created {
  recurrence: RecurrenceJson;
  warnings: string[];
}

/**
 * Stores a recurrence whose every content would be a valid post for its accounts now (so a bad body is
 * a 400 here, not a failed occurrence later). The accounts are stored as the ids they resolved to.
 */
export async function createRecurrence(db: Db, orgId: number, body: unknown, now: Date, fetch: FetchPolicy): Promise<Created> {
  const parsed = parseRecurrenceBody(body, now, fetch);
  if (!parsed.ok) throw validationError(parsed.details);
  const { post, variations, schedule, requests, warnings } = parsed.value;
  const accounts = await judgeForAccounts(db, orgId, requests);
  const first = firstOccurrence(schedule);
  if (!first) throw validationError([{ field: 'until', message: 'no occurrence falls between "startAt" and "until"' }]);
  const stored = { ...post, accounts: accounts.map((a) => encodeId(a.id)) };
  const materializeAt = new Date(Math.max(now.getTime(), first.getTime() - SCHEDULE_HORIZON_MS));
  const { rows } = await db.query<RecurrenceRow>(
    `WITH r AS (
       INSERT INTO recurrences (org_id, post, variations, rule, start_at, occurrence_count, until_at, next_at, materialize_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *
     ) SELECT r.*, pg_notify('${RECURRENCES_CHANNEL}', '') AS notified FROM r`,
    [orgId, stored, JSON.stringify(variations), schedule.rule, schedule.startAt, schedule.count, schedule.until, first, materializeAt],
  );
  return { recurrence: toRecurrenceJson(rows[0]!, []), warnings };
}

/**
 * Each content (the body's own, then each variation) judged for the accounts it names, resolved now:
 * a rule of a network that refuses it is a 400 naming the content. Answers the accounts.
 */
async function judgeForAccounts(db: Queryable, orgId: number, requests: CreateRequest[]): Promise<ResolvedAccount[]> {
  const [accounts] = await resolveAccounts(db, [{ orgId, entries: requests[0]!.accounts }]);
  const issues: FieldIssue[] = [];
  for (const [i, request] of requests.entries()) {
    const problem = accountProblem(request, accounts!);
    if (!problem) continue;
    if (i === 0 || problem.code === 'no_account_resolved') throw problem;
    issues.push(...(problem.details ?? []).map((issue) => ({ field: `variations[${i - 1}].${issue.field}`, message: issue.message })));
  }
  if (issues.length) throw validationError(issues);
  return accounts!;
}

export async function listRecurrences(db: Queryable, orgId: number, query: { limit?: number; offset?: number }): Promise<{ data: RecurrenceJson[]; total: number }> {
  const { rows } = await db.query<RecurrenceRow & { total: number }>(
    'SELECT *, count(*) OVER ()::int AS total FROM recurrences WHERE org_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3',
    [orgId, query.limit ?? 50, query.offset ?? 0],
  );
  const total = rows[0]?.total ?? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM recurrences WHERE org_id = $1', [orgId])).rows[0]!.n;
  return { data: rows.map((row) => toRecurrenceJson(row)), total };
}

export async function getRecurrence(db: Queryable, orgId: number, encodedId: string): Promise<RecurrenceJson> {
  const row = await selectRecurrence(db, orgId, encodedId);
  return toRecurrenceJson(row, await selectOccurrences(db, row.id));
}

async function selectRecurrence(db: Queryable, orgId: number, encodedId: string, lock = ''): Promise<RecurrenceRow> {
  const id = decodeId(encodedId);
  const row = id === undefined ? undefined : (await db.query<RecurrenceRow>(`SELECT * FROM recurrences WHERE id = $1 AND org_id = $2 ${lock}`, [id, orgId])).rows[0];
  if (!row) throw notFound();
  return row;
}

/**
 * PATCH: `status` "paused" or "active" (pausing stops new occurrences, one already created stays an
 * ordinary scheduled post; resuming skips the occurrences whose time passed meanwhile), and the
 * content of the occurrences to come (`content` or `containers`, a network's block, `variations`),
 * judged as on create. An occurrence already created keeps its content. The rule and the accounts
 * stay: a recurrence with others is another recurrence.
 */
export async function updateRecurrence(db: Db, orgId: number, encodedId: string, body: Record<string, unknown>, now: Date, fetch: FetchPolicy): Promise<RecurrenceJson> {
  const allowed: readonly string[] = ['status', ...CONTENT_FIELDS, ...NETWORKS];
  const issues: FieldIssue[] = Object.keys(body).filter((key) => !allowed.includes(key))
    .map((field) => ({ field, message: 'cannot be changed: a recurrence changes its status and the content of its occurrences to come (create a new one for other accounts or rules)' }));
  const { status } = body;
  if (status !== undefined && status !== 'paused' && status !== 'active') issues.push({ field: 'status', message: 'must be "paused" or "active"' });
  if (issues.length) throw validationError(issues);
  const row = await withTransaction(db, async (tx) => {
    const current = await selectRecurrence(tx, orgId, encodedId, 'FOR UPDATE');
    if (current.status === 'completed') {
      throw new RequestError(409, 'This recurrence is completed: it has no occurrence left to change', { code: 'recurrence_completed' });
    }
    const change = parseContentChange(body, current, NETWORKS, now, fetch, issues);
    if (issues.length) throw validationError(issues);
    if (change) await judgeForAccounts(tx, orgId, change.requests);
    if (status === undefined && !change) throw validationError([{ field: '(body)', message: `send what to change: status, ${CONTENT_FIELDS.join(', ')} or a network's block` }]);
    const { rows } = await tx.query<RecurrenceRow>(
      `UPDATE recurrences SET status = coalesce($2, status), post = coalesce($3, post), variations = coalesce($4, variations), updated_at = now()
        WHERE id = $1 RETURNING *, pg_notify('${RECURRENCES_CHANNEL}', '') AS notified`,
      [current.id, status ?? null, change?.post ?? null, change ? JSON.stringify(change.variations) : null],
    );
    return rows[0]!;
  });
  return toRecurrenceJson(row, await selectOccurrences(db, row.id));
}

/**
 * DELETE: no occurrence is created any more, and the occurrences created that have not started
 * publishing are cancelled; the published ones stay, as ordinary posts. Their ids are returned.
 */
export async function deleteRecurrence(db: Db, orgId: number, encodedId: string): Promise<{ cancelledPostIds: string[] }> {
  return withTransaction(db, async (tx) => {
    const row = await selectRecurrence(tx, orgId, encodedId, 'FOR UPDATE');
    const { rows: made } = await tx.query<{ post_id: number }>('SELECT post_id FROM recurrence_occurrences WHERE recurrence_id = $1 AND post_id IS NOT NULL', [row.id]);
    const cancelled = await cancelUnstartedPosts(tx, orgId, made.map((m) => Number(m.post_id)));
    await tx.query('DELETE FROM recurrences WHERE id = $1', [row.id]);
    return { cancelledPostIds: cancelled.map(encodeId) };
  });
}
