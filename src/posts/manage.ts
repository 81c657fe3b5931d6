// Rescheduling (PATCH) and cancelling (DELETE) a post. Both take the post's row lock first (the
// order every writer uses) and bump its generation, so jobs queued before are no-ops when they run.
import { trySavepoint, type Tx } from '../db/pool.ts';
import { RequestError, validationError } from '../errors.ts';
import { decodeId } from '../ids.ts';
import type { FieldIssue } from '../networks/types.ts';
import { enqueueInTransaction, type Boss } from '../queue/boss.ts';
import { PUBLISH_QUEUE, type PublishJob } from '../queue/queues.ts';
import { validateSchema } from '../validation/ajv.ts';
import { parseDateTime } from '../validation/date-time.ts';
import { isPlainObject, stripUnknownKeys } from '../validation/strip.ts';
import { PatchPostBodySchema, type PatchPostBody } from './schema.ts';
import { scheduleIssues } from './validate.ts';

interface LockedPost {
  id: number;
  generation: number;
  is_draft: boolean;
  cancelled_at: Date | null;
  statuses: string[];
}

async function lockPost(tx: Tx, orgId: number, encodedId: string): Promise<LockedPost> {
  const id = decodeId(encodedId);
  const post = id === undefined ? undefined : (await tx.query<LockedPost>(
    `SELECT p.id, p.generation, p.is_draft, p.cancelled_at, array(SELECT status FROM targets WHERE post_id = p.id ORDER BY id) AS statuses
       FROM posts p WHERE p.id = $1 AND p.org_id = $2 FOR UPDATE`,
    [id, orgId],
  )).rows[0];
  if (!post) throw new RequestError(404, 'Post not found', { code: 'not_found' });
  return post;
}

export interface PatchResult {
  status: 200 | 202;
  warnings: string[];
}

/**
 * PATCH: `scheduledAt` and/or `isDraft`. Re-queues every destination of a post with nothing published,
 * unless the post is (or is made) a draft: `isDraft` left out keeps the post's own, so moving a draft's
 * time never publishes it.
 */
export async function reschedulePost(tx: Tx, boss: Boss, orgId: number, encodedId: string, body: unknown, now = new Date()): Promise<PatchResult> {
  const { scheduledAt, isDraft, warnings } = parsePatch(body, now);
  const post = await lockPost(tx, orgId, encodedId);
  if (post.statuses.includes('published')) {
    throw new RequestError(409, 'This post is already published on at least one account and cannot be edited or rescheduled; create a new single-destination post for each account that failed', { code: 'post_partially_published' });
  }
  if (post.statuses.includes('publishing')) {
    throw new RequestError(409, 'This post is being published right now and cannot be rescheduled', { code: 'post_publishing', headers: { 'retry-after': '5' } });
  }
  const generation = post.generation + 1;
  const draft = isDraft ?? post.is_draft;
  await tx.query(
    `UPDATE posts SET generation = $2, is_draft = $3, scheduled_at = CASE WHEN $4::boolean THEN $5 ELSE scheduled_at END,
       cancelled_at = NULL, completed_at = NULL, queued = $6 WHERE id = $1`,
    [post.id, generation, draft, scheduledAt !== undefined, scheduledAt ?? null, !draft],
  );
  await tx.query("UPDATE targets SET status = 'pending', error = NULL, current_attempt_id = NULL, attempt_count = 0 WHERE post_id = $1", [post.id]);
  await tx.query('DELETE FROM target_parts WHERE target_id IN (SELECT id FROM targets WHERE post_id = $1)', [post.id]);
  if (draft) return { status: 200, warnings };
  const row = await tx.query<{ scheduled_at: Date | null; targets: number[] }>(
    'SELECT scheduled_at, array(SELECT id FROM targets WHERE post_id = $1 ORDER BY id) AS targets FROM posts WHERE id = $1',
    [post.id],
  );
  const at = row.rows[0]!.scheduled_at;
  const jobs = row.rows[0]!.targets.map((targetId) => ({
    data: { targetId: Number(targetId), postId: post.id, generation } satisfies PublishJob,
    startAfter: at && at > now ? at : undefined,
  }));
  const enqueued = await trySavepoint(tx, 'enqueue', () => enqueueInTransaction(boss, tx, PUBLISH_QUEUE, jobs));
  if (enqueued.ok) return { status: 200, warnings };
  await tx.query('UPDATE posts SET queued = false WHERE id = $1', [post.id]);
  return { status: 202, warnings };
}

function parsePatch(body: unknown, now: Date): { scheduledAt?: Date; isDraft?: boolean; warnings: string[] } {
  if (!isPlainObject(body)) throw validationError([{ field: '(body)', message: 'must be a JSON object' }]);
  const { value, dropped } = stripUnknownKeys(PatchPostBodySchema, body);
  const warnings = dropped.map((key) => `Unknown key "${key}" was ignored; only "scheduledAt" and "isDraft" can be changed`);
  const input = value as PatchPostBody;
  const issues: FieldIssue[] = validateSchema(PatchPostBodySchema, input);
  if (input.scheduledAt === undefined && input.isDraft === undefined) {
    issues.push({ field: 'scheduledAt', message: 'send "scheduledAt" (to requeue at that time) or "isDraft"' });
  }
  // The schema has read scheduledAt with the one date-time parser, so it parses once the schema passed.
  const scheduledAt = issues.length === 0 && input.scheduledAt !== undefined ? parseDateTime(input.scheduledAt)! : undefined;
  if (scheduledAt) issues.push(...scheduleIssues(scheduledAt, now));
  if (issues.length) throw validationError(issues);
  return { scheduledAt, isDraft: input.isDraft, warnings };
}

export type DeleteResult =
  | { outcome: 'cancelled'; message: string }
  | { outcome: 'record_deleted'; message: string };

/**
 * DELETE: a post that has not started publishing is cancelled (its jobs become no-ops). A post whose
 * publishing is over loses only Crier's record; what was published stays on the networks.
 */
export async function deletePost(tx: Tx, orgId: number, encodedId: string): Promise<DeleteResult> {
  const post = await lockPost(tx, orgId, encodedId);
  if (post.statuses.includes('publishing')) {
    throw new RequestError(409, 'This post is being published right now; it can no longer be cancelled', { code: 'post_publishing', headers: { 'retry-after': '5' } });
  }
  const started = post.statuses.some((s) => s === 'published' || s === 'failed' || s === 'unknown');
  if (!started) {
    await tx.query('UPDATE posts SET cancelled_at = coalesce(cancelled_at, now()), generation = generation + 1, queued = false WHERE id = $1', [post.id]);
    await tx.query("UPDATE targets SET status = 'cancelled' WHERE post_id = $1", [post.id]);
    return { outcome: 'cancelled', message: 'The post was cancelled; nothing was published.' };
  }
  if (post.statuses.some((s) => s === 'pending')) {
    throw new RequestError(409, 'Some destinations of this post are published and others still pending; wait until it finishes, then delete it', { code: 'post_partially_published' });
  }
  await tx.query('DELETE FROM posts WHERE id = $1', [post.id]);
  const published = post.statuses.filter((s) => s === 'published').length;
  return {
    outcome: 'record_deleted',
    message: published
      ? `Crier's record of the post was deleted; the ${published === 1 ? 'post stays' : `${published} posts stay`} on the networks.`
      : "Crier's record of the post was deleted; nothing had been published.",
  };
}
