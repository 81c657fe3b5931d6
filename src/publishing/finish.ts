// Recording how attempts ended, many in one transaction, and — for each post whose last open target
// this finished — emitting the post's one event (post.published or post.error) in that transaction.
import { prepared, withTransaction, type Db, type Queryable, type Tx } from '../db/pool.ts';
import { encodeId } from '../ids.ts';
import { emitEvent, emitEvents, type NewEvent } from '../webhooks/outbox.ts';
import type { Claim } from './claim.ts';
import type { ConfirmedPart } from './parts.ts';

export type Outcome =
  | { status: 'published'; platformPostId: string; platformPostUrl: string }
  | { status: 'failed' | 'unknown'; error: string; deactivateAccount?: boolean }
  /** Due again after `delayMs`, as a new attempt (a retryable error). */
  | { status: 'retry'; error: string; delayMs: number }
  /** A network's waiting step: due again after `delayMs`, resuming from `checkpoint`. */
  | { status: 'wait'; checkpoint: Record<string, unknown>; delayMs: number };

export interface FinishedAttempt {
  claim: Claim;
  outcome: Outcome;
  /** The last container the network accepted, not yet on record: written with the outcome. */
  confirm?: ConfirmedPart;
}

const TARGET_STATUS = { published: 'published', failed: 'failed', unknown: 'unknown', retry: 'pending', wait: 'pending' } as const;
const ATTEMPT_OUTCOME = { published: 'published', failed: 'failed', unknown: 'unknown', retry: 'retry', wait: 'waiting' } as const;

/**
 * Applies each outcome whose claim is still its target's current attempt; returns, per item, false
 * when a newer attempt took over (then it records nothing but the container it published).
 *
 * Locks the posts first, in id order, then their targets — the order PATCH and DELETE use, so the
 * three never deadlock — and with the post locked, the last of two workers finishing a post's last
 * two targets at once is the one that sees them both finished and emits the event.
 */
export async function recordOutcomes(db: Db, items: FinishedAttempt[]): Promise<boolean[]> {
  return withTransaction(db, async (tx) => {
    const postIds = [...new Set(items.map((i) => i.claim.postId))].sort((a, b) => a - b);
    await tx.query(prepared('SELECT 1 FROM posts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE'), [postIds]);
    const recorded = await writeOutcomes(tx, items);
    const current = items.filter((i) => recorded.has(i.claim.attemptId));
    for (const { claim, outcome } of current) {
      if ('deactivateAccount' in outcome && outcome.deactivateAccount) await markAccountDisconnected(tx, claim.orgId, claim.account, outcome.error);
    }
    const settled = current.filter((i) => i.outcome.status !== 'retry' && i.outcome.status !== 'wait');
    await completePosts(tx, [...new Set(settled.map((i) => i.claim.postId))], [...new Set(settled.filter((i) => i.outcome.status === 'published').map((i) => i.claim.postId))]);
    return items.map((i) => recorded.has(i.claim.attemptId));
  });
}

/** Attempts, targets and last parts in one statement; returns the attempt ids that were current. */
async function writeOutcomes(tx: Tx, items: FinishedAttempt[]): Promise<Set<number>> {
  // Same row order in every batch: two batches touching the same targets cannot deadlock.
  const rows = [...items].sort((a, b) => a.claim.targetId - b.claim.targetId);
  const column = <T>(pick: (i: FinishedAttempt) => T) => rows.map(pick);
  const { rows: current } = await tx.query<{ attempt_id: number }>({
    ...prepared(`WITH r AS (
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                            $9::float8[], $10::jsonb[], $11::int[], $12::text[], $13::text[], $14::jsonb[])
         AS r(target_id, attempt_id, org_id, status, attempt_outcome, error, platform_post_id, platform_post_url,
              delay_ms, checkpoint, part_position, part_id, part_url, part_ref)
     ), cur AS (
       SELECT r.* FROM r JOIN targets t ON t.id = r.target_id AND t.current_attempt_id = r.attempt_id
        ORDER BY r.target_id FOR UPDATE OF t
     ), part AS (
       INSERT INTO target_parts (target_id, position, org_id, status, platform_id, platform_url, ref)
       SELECT target_id, part_position, org_id, 'published', part_id, part_url, part_ref FROM r WHERE part_position IS NOT NULL
       ON CONFLICT (target_id, position) DO UPDATE SET status = 'published', platform_id = EXCLUDED.platform_id,
         platform_url = EXCLUDED.platform_url, ref = EXCLUDED.ref, updated_at = now()
     ), attempt AS (
       UPDATE attempts a SET finished_at = now(), outcome = cur.attempt_outcome, error = cur.error
         FROM cur WHERE a.id = cur.attempt_id
     ), target AS (
       UPDATE targets t
          SET status = cur.status, current_attempt_id = NULL,
              error = CASE WHEN cur.status = 'published' THEN NULL WHEN cur.attempt_outcome = 'waiting' THEN t.error ELSE cur.error END,
              platform_post_id = coalesce(cur.platform_post_id, t.platform_post_id),
              platform_post_url = coalesce(cur.platform_post_url, t.platform_post_url),
              published_at = CASE WHEN cur.status = 'published' THEN now() ELSE t.published_at END,
              due_at = CASE WHEN cur.status = 'pending' THEN now() + cur.delay_ms * interval '1 millisecond' END,
              checkpoint = CASE WHEN cur.attempt_outcome = 'waiting' THEN cur.checkpoint END,
              -- A wait is a step of the same attempt's work, not another try: it spends no attempt.
              attempt_count = CASE WHEN cur.attempt_outcome = 'waiting' THEN t.attempt_count - 1 ELSE t.attempt_count END
         FROM cur WHERE t.id = cur.target_id
     )
     SELECT attempt_id FROM cur`),
    values: [
      column((i) => i.claim.targetId),
      column((i) => i.claim.attemptId),
      column((i) => i.claim.orgId),
      column((i) => TARGET_STATUS[i.outcome.status]),
      column((i) => ATTEMPT_OUTCOME[i.outcome.status]),
      column((i) => ('error' in i.outcome ? i.outcome.error : null)),
      column((i) => (i.outcome.status === 'published' ? i.outcome.platformPostId : null)),
      column((i) => (i.outcome.status === 'published' ? i.outcome.platformPostUrl : null)),
      column((i) => ('delayMs' in i.outcome ? i.outcome.delayMs : null)),
      column((i) => (i.outcome.status === 'wait' ? JSON.stringify(i.outcome.checkpoint) : null)),
      column((i) => i.confirm?.position ?? null),
      column((i) => i.confirm?.ref.platformId ?? null),
      column((i) => i.confirm?.ref.url ?? null),
      column((i) => (i.confirm?.ref.ref ? JSON.stringify(i.confirm.ref.ref) : null)),
    ],
  });
  return new Set(current.map((r) => r.attempt_id));
}

/**
 * The token no longer works: the account becomes inactive and, once, account.token_expired is emitted.
 * Also used by the token refresher (accounts/token-refresh.ts) when a refresh token is refused.
 */
export async function markAccountDisconnected(tx: Queryable, orgId: number, account: { id: number; network: string; username: string }, error: string): Promise<void> {
  const { rowCount } = await tx.query('UPDATE social_accounts SET is_active = false WHERE id = $1 AND is_active', [account.id]);
  if (rowCount) {
    await emitEvent(tx, orgId, 'account.token_expired', {
      orgId: encodeId(orgId),
      accountId: account.id,
      network: account.network,
      username: account.username,
      error,
    });
  }
}

interface TargetState {
  account_id: number;
  network: string;
  username: string;
  status: string;
  error: string | null;
  platform_post_id: string | null;
  platform_post_url: string | null;
}

/**
 * `published`: posts with a first success in this transaction (publishedAt is the first success).
 * `touched`: posts with a target that reached a final state; each of them with no open target left
 * gets its one event and leaves the queue.
 */
async function completePosts(tx: Tx, touched: number[], published: number[]): Promise<void> {
  if (touched.length === 0) return;
  const { rows } = await tx.query<{ id: number; org_id: number; targets: TargetState[] }>({
    ...prepared(`SELECT p.id, p.org_id,
            (SELECT json_agg(json_build_object('account_id', t.account_id, 'network', a.network, 'username', a.username, 'status', t.status,
                    'error', t.error, 'platform_post_id', t.platform_post_id, 'platform_post_url', t.platform_post_url) ORDER BY t.id)
               FROM targets t JOIN social_accounts a ON a.id = t.account_id WHERE t.post_id = p.id) AS targets
       FROM posts p
      WHERE p.id = ANY($1::bigint[]) AND p.completed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id AND t.status IN ('pending', 'publishing'))`),
    values: [touched],
  });
  const events = rows.map((p) => completionEvent(p.id, p.org_id, p.targets)).filter((e): e is NewEvent => e !== undefined);
  await emitEvents(tx, events);
  const completed = rows.map((p) => p.id);
  await tx.query(
    prepared(`UPDATE posts SET published_at = CASE WHEN id = ANY($2::bigint[]) THEN coalesce(published_at, now()) ELSE published_at END,
              completed_at = CASE WHEN id = ANY($1::bigint[]) THEN now() ELSE completed_at END,
              queued = CASE WHEN id = ANY($1::bigint[]) THEN false ELSE queued END
        WHERE id = ANY($1::bigint[]) OR id = ANY($2::bigint[])`),
    [completed, published],
  );
}

/** post.published (at least one success, listing those) or post.error (all failed, listing each). */
function completionEvent(postId: number, orgId: number, targets: TargetState[]): NewEvent | undefined {
  const base = { postId: encodeId(postId), orgId: encodeId(orgId) };
  const published = targets.filter((t) => t.status === 'published');
  if (published.length) {
    return {
      orgId,
      type: 'post.published',
      data: {
        ...base,
        socialAccounts: published.map((t) => ({
          accountId: encodeId(t.account_id), network: t.network, username: t.username,
          platformPostId: t.platform_post_id, platformPostUrl: t.platform_post_url,
        })),
      },
    };
  }
  const failed = targets.filter((t) => t.status === 'failed' || t.status === 'unknown');
  if (!failed.length) return undefined; // every target cancelled: nothing happened to tell
  return {
    orgId,
    type: 'post.error',
    data: { ...base, socialAccounts: failed.map((t) => ({ accountId: encodeId(t.account_id), network: t.network, username: t.username, error: t.error ?? 'failed' })) },
  };
}
