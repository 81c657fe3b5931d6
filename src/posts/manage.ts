// Rescheduling (PATCH) and cancelling (DELETE) a post. Both lock the post, then its targets (the order
// every writer uses), and read the targets' states under those locks: a worker's claim holds a target
// it is taking, so a target is seen either before the claim (and the claim then skips it) or as
// `publishing` (and is left alone). The targets are the publishing queue: rescheduling moves their
// due time, cancelling clears it, and nothing of the old schedule remains to publish.
//
// Approval (orgs/settings.ts `requireApproval`): a post waiting for it (`approval = 'pending'`) has its
// destinations `pending_approval` and nothing due. Approving or rejecting is one conditional UPDATE of
// the post (still pending, not cancelled): of an approval, a rejection and a cancel racing, the first
// to lock the post decides and the others find it decided (409). Rescheduling keeps a pending post
// pending; making it a draft withdraws the request, and making a draft a post asks again.
import type { Tx } from '../db/pool.ts';
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { emitEvent } from '../webhooks/outbox.ts';
import { postNeedsApproval } from '../orgs/settings.ts';
import { validateSchema } from '../validation/ajv.ts';
import { parseDateTime } from '../validation/date-time.ts';
import { isPlainObject, stripUnknownKeys } from '../validation/strip.ts';
import { PatchPostBodySchema, type PatchPostBody } from './schema.ts';
import { scheduleIssues } from './validate.ts';

type Approval = 'pending' | 'approved' | 'rejected' | null;

interface LockedPost {
  id: number;
  generation: number;
  is_draft: boolean;
  cancelled_at: Date | null;
  approval: Approval;
  statuses: string[];
  /**
   * Some destination still pending has already reached its network: a container published (a
   * thread's root before a retry of its reply) or a step stored (an upload session, a video
   * processing). Requeueing it from scratch would publish that part twice; cancelling it would
   * leave it there while saying nothing was published.
   */
  underway: boolean;
}

async function lockPost(tx: Tx, orgId: number, encodedId: string): Promise<LockedPost> {
  const id = decodeId(encodedId);
  const post = id === undefined ? undefined : (await tx.query<Omit<LockedPost, 'statuses'>>(
    'SELECT id, generation, is_draft, cancelled_at, approval FROM posts WHERE id = $1 AND org_id = $2 FOR UPDATE',
    [id, orgId],
  )).rows[0];
  if (!post) throw new RequestError(404, 'Post not found', { code: 'not_found' });
  // A statement of its own, after the post lock: it waits for a claim in progress and sees its result.
  const targets = await tx.query<{ status: string; underway: boolean }>(
    `SELECT status, checkpoint IS NOT NULL OR EXISTS (SELECT 1 FROM target_parts tp WHERE tp.target_id = t.id) AS underway
       FROM targets t WHERE post_id = $1 ORDER BY id FOR UPDATE`,
    [post.id],
  );
  return { ...post, statuses: targets.rows.map((t) => t.status), underway: targets.rows.some((t) => t.underway) };
}

export interface PatchResult {
  status: 200;
  warnings: string[];
  /** When the targets are due again (null: now); undefined when nothing is queued (a draft). */
  dueAt: Date | null | undefined;
}

/**
 * PATCH: `scheduledAt` and/or `isDraft`. Re-queues every destination of a post with nothing published,
 * unless the post is (or is made) a draft: `isDraft` left out keeps the post's own, so moving a draft's
 * time never publishes it.
 */
export async function reschedulePost(tx: Tx, orgId: number, encodedId: string, body: unknown, now = new Date()): Promise<PatchResult> {
  const { scheduledAt, isDraft, warnings } = parsePatch(body, now);
  const post = await lockPost(tx, orgId, encodedId);
  if (post.approval === 'rejected') throw rejected('rescheduled');
  if (post.statuses.some((s) => s === 'published' || s === 'deleted')) {
    throw new RequestError(409, 'This post is already published on at least one account and cannot be edited or rescheduled; create a new single-destination post for each account that failed', { code: 'post_partially_published' });
  }
  if (post.statuses.includes('publishing')) {
    throw new RequestError(409, 'This post is being published right now and cannot be rescheduled', { code: 'post_publishing', headers: { 'retry-after': '5' } });
  }
  if (post.underway) throw underway('rescheduled');
  const generation = post.generation + 1;
  const draft = isDraft ?? post.is_draft;
  const approval = await approvalAfterPatch(tx, orgId, post, draft);
  const waiting = approval === 'pending';
  await tx.query(
    `UPDATE posts SET generation = $2, is_draft = $3, scheduled_at = CASE WHEN $4::boolean THEN $5 ELSE scheduled_at END,
       cancelled_at = NULL, completed_at = NULL, queued = $6, approval = $7 WHERE id = $1`,
    [post.id, generation, draft, scheduledAt !== undefined, scheduledAt ?? null, !draft && !waiting, approval],
  );
  const row = await tx.query<{ scheduled_at: Date | null }>(
    `UPDATE targets t SET status = CASE WHEN $3 THEN 'pending_approval' ELSE 'pending' END, error = NULL, current_attempt_id = NULL,
            attempt_count = 0, checkpoint = NULL, due_at = CASE WHEN $2 OR $3 THEN NULL ELSE coalesce(p.scheduled_at, now()) END
       FROM posts p WHERE p.id = $1 AND t.post_id = p.id
     RETURNING p.scheduled_at`,
    [post.id, draft, waiting],
  );
  await tx.query('DELETE FROM target_parts WHERE target_id IN (SELECT id FROM targets WHERE post_id = $1)', [post.id]);
  if (waiting && post.approval !== 'pending') await requestApproval(tx, orgId, post.id);
  if (draft || waiting) return { status: 200, warnings, dueAt: undefined };
  const at = row.rows[0]?.scheduled_at ?? null;
  return { status: 200, warnings, dueAt: at && at > now ? at : null };
}

/**
 * The approval a patched post has: a draft asks for none (a pending request is withdrawn); a post that
 * is not a draft keeps waiting, or starts waiting when it had none and its organization (or a tenant of
 * its accounts) requires it;
 * an approved post stays approved.
 */
async function approvalAfterPatch(tx: Tx, orgId: number, post: LockedPost, draft: boolean): Promise<Approval> {
  if (draft) return post.approval === 'pending' ? null : post.approval;
  if (post.approval !== null) return post.approval;
  return (await postNeedsApproval(tx, orgId, post.id)) ? 'pending' : null;
}

/** post.approval_requested, in the transaction that made the post wait. */
async function requestApproval(tx: Tx, orgId: number, postId: number): Promise<void> {
  const { rows } = await tx.query<{ scheduled_at: Date | null; accounts: { id: number; network: string; username: string }[] }>(
    `SELECT p.scheduled_at, (SELECT json_agg(json_build_object('id', a.id, 'network', a.network, 'username', a.username) ORDER BY t.id)
                               FROM targets t JOIN social_accounts a ON a.id = t.account_id WHERE t.post_id = p.id) AS accounts
       FROM posts p WHERE p.id = $1`,
    [postId],
  );
  const post = rows[0]!;
  await emitEvent(tx, orgId, 'post.approval_requested', {
    postId: encodeId(postId),
    orgId: encodeId(orgId),
    scheduledAt: post.scheduled_at?.toISOString() ?? null,
    socialAccounts: (post.accounts ?? []).map((a) => ({ accountId: encodeId(a.id), network: a.network, username: a.username })),
  });
}

function rejected(what: string): RequestError {
  return new RequestError(409, `This post was rejected; a rejected post is final and cannot be ${what}. Create a new post instead`, { code: 'post_rejected' });
}

/** A destination part-way through publishing (a container live, an upload or processing under way): wait for it to finish. */
function underway(what: string): RequestError {
  return new RequestError(409, `This post has started publishing: part of it is already on a network, or an upload there is under way. It can no longer be ${what}; wait until it finishes`, {
    code: 'post_publishing', headers: { 'retry-after': '30' },
  });
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
 * Cancels each of these posts none of whose destinations has started (a runner's posts, when their
 * recurrence or evergreen collection is deleted); answers the ids cancelled. The posts, then each one's
 * targets, are locked in the order every writer takes them, so what is read here is what deletePost
 * sees: a post that started is never mistaken for one to cancel.
 */
export async function cancelUnstartedPosts(tx: Tx, orgId: number, postIds: number[]): Promise<number[]> {
  const { rows: posts } = await tx.query<{ id: number }>(
    'SELECT id::int FROM posts WHERE id = ANY($1::bigint[]) AND org_id = $2 AND cancelled_at IS NULL ORDER BY id FOR UPDATE',
    [postIds, orgId],
  );
  const cancelled: number[] = [];
  for (const { id } of posts) {
    const { rows } = await tx.query<{ unstarted: boolean }>(
      `SELECT t.status IN ('pending', 'pending_approval') AND t.checkpoint IS NULL
              AND NOT EXISTS (SELECT 1 FROM target_parts tp WHERE tp.target_id = t.id) AS unstarted
         FROM targets t WHERE t.post_id = $1 ORDER BY t.id FOR UPDATE`,
      [id],
    );
    if (rows.length === 0 || !rows.every((t) => t.unstarted)) continue;
    await deletePost(tx, orgId, encodeId(id));
    cancelled.push(id);
  }
  return cancelled;
}

/**
 * DELETE: a post that has not started publishing is cancelled (nothing of it is due any more). A post whose
 * publishing is over loses only Crier's record; what was published stays on the networks.
 */
export async function deletePost(tx: Tx, orgId: number, encodedId: string): Promise<DeleteResult> {
  const post = await lockPost(tx, orgId, encodedId);
  if (post.statuses.includes('publishing')) {
    throw new RequestError(409, 'This post is being published right now; it can no longer be cancelled', { code: 'post_publishing', headers: { 'retry-after': '5' } });
  }
  // A rejected post is over like a failed one: deleting it deletes its record.
  const started = post.underway || post.statuses.some((s) => s === 'published' || s === 'deleted' || s === 'failed' || s === 'unknown' || s === 'rejected');
  if (!started) {
    await tx.query('UPDATE posts SET cancelled_at = coalesce(cancelled_at, now()), generation = generation + 1, queued = false WHERE id = $1', [post.id]);
    await tx.query("UPDATE targets SET status = 'cancelled', due_at = NULL, checkpoint = NULL WHERE post_id = $1", [post.id]);
    return { outcome: 'cancelled', message: 'The post was cancelled; nothing was published.' };
  }
  if (post.statuses.some((s) => s === 'pending') && post.underway && !post.statuses.some((s) => s === 'published')) throw underway('cancelled');
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

export type ApprovalDecision = 'approved' | 'rejected';

export interface ApprovalResult {
  /** When the approved post's destinations are due (null: now); undefined when rejected. Wake the workers. */
  dueAt: Date | null | undefined;
}

/**
 * Approves or rejects a post waiting for approval, as the key `keyId`. One conditional UPDATE decides:
 * the post must still be pending and not cancelled, so of two decisions (or a decision and a cancel)
 * racing, exactly one takes effect and the other is a 409. Approving makes every destination due at
 * the post's time, or now when that has passed; rejecting makes them `rejected`, a final state (the
 * post counts as cancelled: its queue slot is free again). The event goes to the outbox in the same
 * transaction.
 */
export async function decideApproval(
  tx: Tx, orgId: number, encodedId: string, decision: ApprovalDecision, keyId: number, reason: string | null,
): Promise<ApprovalResult> {
  const id = decodeId(encodedId);
  if (id === undefined) throw new RequestError(404, 'Post not found', { code: 'not_found' });
  const decided = await tx.query<{ scheduled_at: Date | null }>(
    `UPDATE posts SET approval = $3, approval_decided_at = now(), approval_decided_by = $4, approval_reason = $5,
            queued = ($3 = 'approved'), cancelled_at = CASE WHEN $3 = 'rejected' THEN now() END
      WHERE id = $1 AND org_id = $2 AND approval = 'pending' AND cancelled_at IS NULL
     RETURNING scheduled_at`,
    [id, orgId, decision, keyId, reason],
  );
  const post = decided.rows[0];
  if (!post) throw await undecidable(tx, orgId, id, decision);
  const approved = decision === 'approved';
  await tx.query(
    `UPDATE targets SET status = $2, due_at = CASE WHEN $3 THEN coalesce($4, now()) END
      WHERE post_id = $1 AND status = 'pending_approval'`,
    [id, approved ? 'pending' : 'rejected', approved, post.scheduled_at],
  );
  const common = { postId: encodeId(id), orgId: encodeId(orgId) };
  if (approved) {
    await emitEvent(tx, orgId, 'post.approved', { ...common, scheduledAt: post.scheduled_at?.toISOString() ?? null, approvedBy: encodeId(keyId) });
    return { dueAt: post.scheduled_at && post.scheduled_at > new Date() ? post.scheduled_at : null };
  }
  await emitEvent(tx, orgId, 'post.rejected', { ...common, rejectedBy: encodeId(keyId), reason });
  return { dueAt: undefined };
}

/** Why a post cannot be approved or rejected: 404 when it is not this organization's, else a 409 naming its state. */
async function undecidable(tx: Tx, orgId: number, id: number, decision: ApprovalDecision): Promise<RequestError> {
  const { rows } = await tx.query<{ approval: Approval; cancelled_at: Date | null }>('SELECT approval, cancelled_at FROM posts WHERE id = $1 AND org_id = $2', [id, orgId]);
  const post = rows[0];
  if (!post) return new RequestError(404, 'Post not found', { code: 'not_found' });
  const verb = decision === 'approved' ? 'approved' : 'rejected';
  const state = post.approval === 'approved' ? 'was approved already'
    : post.approval === 'rejected' ? 'was rejected already'
    : post.approval === 'pending' ? 'was cancelled'
    : 'does not wait for approval (its organization did not require it, or it is a draft)';
  return new RequestError(409, `This post ${state}; it can no longer be ${verb}`, { code: 'post_not_pending_approval' });
}
