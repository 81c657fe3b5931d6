// Recording how an attempt ended, and — when it was the post's last open target — emitting the
// post's one event (post.published or post.error) in the same transaction.
import { withTransaction, type Db, type Queryable, type Tx } from '../db/pool.ts';
import { encodeId } from '../ids.ts';
import { emitEvent } from '../webhooks/outbox.ts';
import type { Claim } from './claim.ts';

export type Outcome =
  | { status: 'published'; platformPostId: string; platformPostUrl: string }
  | { status: 'failed' | 'unknown'; error: string; deactivateAccount?: boolean }
  | { status: 'retry'; error: string; delayMs: number };

/**
 * Applies `outcome` if `claim` is still the target's current attempt; returns false when a newer
 * attempt took over (then this one records nothing). `requeue` queues the retry job in the same
 * transaction.
 */
export async function finishAttempt(db: Db, claim: Claim, outcome: Outcome, requeue: (tx: Tx, delayMs: number) => Promise<void>): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    await tx.query('SELECT 1 FROM posts WHERE id = $1 FOR UPDATE', [claim.postId]);
    const current = await tx.query<{ current_attempt_id: number | null }>('SELECT current_attempt_id FROM targets WHERE id = $1 FOR UPDATE', [claim.targetId]);
    if (current.rows[0]?.current_attempt_id !== claim.attemptId) return false;

    const attemptOutcome = outcome.status === 'retry' ? 'retry' : outcome.status;
    const error = 'error' in outcome ? outcome.error : null;
    await tx.query('UPDATE attempts SET finished_at = now(), outcome = $2, error = $3 WHERE id = $1', [claim.attemptId, attemptOutcome, error]);
    if (outcome.status === 'published') {
      await tx.query(
        `UPDATE targets SET status = 'published', platform_post_id = $2, platform_post_url = $3, published_at = now(), error = NULL, current_attempt_id = NULL WHERE id = $1`,
        [claim.targetId, outcome.platformPostId, outcome.platformPostUrl],
      );
      await tx.query('UPDATE posts SET published_at = coalesce(published_at, now()) WHERE id = $1', [claim.postId]);
    } else if (outcome.status === 'retry') {
      await tx.query("UPDATE targets SET status = 'pending', error = $2, current_attempt_id = NULL WHERE id = $1", [claim.targetId, outcome.error]);
      await requeue(tx, outcome.delayMs);
      return true;
    } else {
      await tx.query('UPDATE targets SET status = $2, error = $3, current_attempt_id = NULL WHERE id = $1', [claim.targetId, outcome.status, outcome.error]);
      if (outcome.deactivateAccount) await markAccountDisconnected(tx, claim.orgId, claim.account, outcome.error);
    }
    await completePostIfDone(tx, claim.postId, claim.orgId);
    return true;
  });
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

/** When no target of the post is open any more: exactly one event, and the post leaves the queue. */
export async function completePostIfDone(tx: Tx, postId: number, orgId: number): Promise<void> {
  const post = await tx.query<{ completed_at: Date | null }>('SELECT completed_at FROM posts WHERE id = $1', [postId]);
  if (!post.rows[0] || post.rows[0].completed_at) return;
  const { rows } = await tx.query<{ account_id: number; network: string; username: string; status: string; error: string | null; platform_post_id: string | null; platform_post_url: string | null }>(
    `SELECT t.account_id, a.network, a.username, t.status, t.error, t.platform_post_id, t.platform_post_url
       FROM targets t JOIN social_accounts a ON a.id = t.account_id WHERE t.post_id = $1 ORDER BY t.id`,
    [postId],
  );
  if (rows.some((t) => t.status === 'pending' || t.status === 'publishing')) return;
  const published = rows.filter((t) => t.status === 'published');
  const failed = rows.filter((t) => t.status === 'failed' || t.status === 'unknown');
  const base = { postId: encodeId(postId), orgId: encodeId(orgId) };
  if (published.length) {
    await emitEvent(tx, orgId, 'post.published', {
      ...base,
      socialAccounts: published.map((t) => ({
        accountId: encodeId(t.account_id), network: t.network, username: t.username,
        platformPostId: t.platform_post_id, platformPostUrl: t.platform_post_url,
      })),
    });
  } else if (failed.length) {
    await emitEvent(tx, orgId, 'post.error', {
      ...base,
      socialAccounts: failed.map((t) => ({ accountId: encodeId(t.account_id), network: t.network, username: t.username, error: t.error ?? 'failed' })),
    });
  }
  await tx.query('UPDATE posts SET completed_at = now(), queued = false WHERE id = $1', [postId]);
}
