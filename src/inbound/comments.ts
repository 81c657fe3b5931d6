// comment.received from an inbound comment item: once per (account, comment id) whatever the number of
// redeliveries, never for the account's own comments, with the post Crier published when it knows it
// and the commenter's profile only when the commenter has messaged the account (the network shows a
// profile to the account only then).
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { encodeId } from '../core/ids.ts';
import type { ContactLookup, InboundItem, NetworkCapabilities, AccountSession } from '../networks/capabilities.ts';
import { emitEvent } from '../webhooks/outbox.ts';
import type { EventDataMap } from '../webhooks/events.ts';
import type { InboundAccount } from '../accounts/inbound-accounts.ts';
import { contactProfile } from '../conversations/contacts.ts';
import { hasMessaged } from '../conversations/store.ts';

type CommentItem = Extract<InboundItem, { kind: 'comment' }>;

export interface CommentDeps {
  db: Db;
  session: () => Promise<AccountSession>;
  messages: NetworkCapabilities['messages'];
}

export async function receiveComment(deps: CommentDeps, account: InboundAccount, item: CommentItem): Promise<void> {
  if (item.byAccount) return;
  if (await seen(deps.db, account.id, item.commentId)) return;
  const author = await authorOf(deps, account, item);
  await withTransaction(deps.db, async (tx) => {
    const { rowCount } = await tx.query(
      `INSERT INTO inbound_seen (social_account_id, kind, item_id) VALUES ($1, 'comment', $2) ON CONFLICT DO NOTHING`,
      [account.id, item.commentId],
    );
    if (!rowCount) return;
    const post = await publishedPost(tx, account.id, item.platformPostId);
    const data: EventDataMap['comment.received'] = {
      orgId: encodeId(account.orgId),
      network: account.network,
      accountId: encodeId(account.id),
      postId: post?.id ?? null,
      platformPostId: item.platformPostId,
      commentId: item.commentId,
      // An answer to one of the post's own containers (a later part of a thread) is a top-level comment, as GET …/replies lists it.
      parentCommentId: item.parentCommentId && post?.containerIds.includes(item.parentCommentId) ? null : item.parentCommentId,
      authorId: item.authorId,
      authorUsername: item.authorUsername,
      text: item.text,
      author,
    };
    await emitEvent(tx, account.orgId, 'comment.received', { ...data });
  });
}

async function seen(db: Queryable, accountId: number, commentId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM inbound_seen WHERE social_account_id = $1 AND kind = 'comment' AND item_id = $2`, [accountId, commentId]);
  return rows.length > 0;
}

async function authorOf(deps: CommentDeps, account: InboundAccount, item: CommentItem): Promise<ReturnType<typeof contactProfile>> {
  if (!item.authorId || !deps.messages || !(await hasMessaged(deps.db, account.id, item.authorId))) return null;
  const looked: ContactLookup | null = await deps.messages.contact(await deps.session(), item.authorId).catch(() => null);
  return contactProfile(looked);
}

/** The org's post whose destination on this account has that platform id (any of its containers), with its containers' ids. */
async function publishedPost(db: Queryable, accountId: number, platformId: string): Promise<{ id: string; containerIds: string[] } | null> {
  const { rows } = await db.query<{ post_id: number; container_ids: string[] }>(
    `SELECT t.post_id, array(SELECT p.platform_id FROM target_parts p WHERE p.target_id = t.id AND p.platform_id IS NOT NULL) AS container_ids
       FROM targets t
      WHERE t.account_id = $1
        AND (t.platform_post_id = $2 OR EXISTS (SELECT 1 FROM target_parts p WHERE p.target_id = t.id AND p.platform_id = $2))
      ORDER BY t.post_id LIMIT 1`,
    [accountId, platformId],
  );
  return rows[0] ? { id: encodeId(rows[0].post_id), containerIds: rows[0].container_ids } : null;
}
