// Sending direct messages through the API: to a conversation's contact inside the network's 24-hour
// window, or as the one private reply to a comment (comment-to-DM, which starts the conversation).
// The message is stored before the network is called; the outcome is message.sent (with
// conversation.started for a conversation's first emitted message) or message.failed with the
// network's reason, and the answer says the same.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { RequestError, validationError, PublishError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { accountSession } from '../accounts/session.ts';
import type { AccountSession, NetworkCapabilities } from '../networks/capabilities.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';
import type { EventDataMap } from '../webhooks/events.ts';
import { emitEvent } from '../webhooks/outbox.ts';
import { emitStarted } from './inbound.ts';
import { ensureConversation, findConversation, messageJson, conversationJson, type ConversationRow, type MessageRow } from './store.ts';
import { checkMessage, type OutgoingMessage } from './validate.ts';

/** The network's standard messaging window after the contact's last message (engagement.md §4.7.6). */
export const WINDOW_MS = 24 * 3_600_000;

export interface SendDeps {
  db: Db;
  box: SecretBox;
  networks: NetworkRegistry;
  userFetch: typeof fetch;
}

interface MessagingAccount {
  id: number;
  orgId: number;
  network: NetworkId;
  messages: NonNullable<NetworkCapabilities['messages']>;
  session: AccountSession;
}

/** POST /v1/conversations/:id/messages */
export async function sendToConversation(deps: SendDeps, orgId: number, conversationId: number, body: Record<string, unknown>) {
  const conversation = await findConversation(deps.db, orgId, conversationId);
  if (!conversation) throw new RequestError(404, 'Conversation not found', { code: 'not_found' });
  const message = checkMessage(body);
  const account = await messagingAccount(deps, orgId, conversation.social_account_id);
  const last = conversation.last_inbound_at?.getTime();
  if (last === undefined || Date.now() - last > WINDOW_MS) {
    const since = last === undefined ? 'the contact has not written to the account' : `the contact last wrote at ${new Date(last).toISOString()}`;
    throw new RequestError(422, `Outside the 24-hour messaging window (${since}): ${account.network} only lets the account answer within 24 hours of the contact's last message`, { code: 'messaging_window_closed' });
  }
  return deliver(deps, account, conversation, message, { recipientId: conversation.participant_id });
}

/** POST /v1/conversations {social_account_id, <network>: {comment_id, author_id}, text, quickReplies?} */
export async function startFromComment(deps: SendDeps, orgId: number, body: Record<string, unknown>) {
  const issues: FieldIssue[] = [];
  const accountId = typeof body.social_account_id === 'string' ? decodeId(body.social_account_id) : undefined;
  if (accountId === undefined) issues.push({ field: 'social_account_id', message: 'must be an account id from GET /v1/social-accounts' });
  const message = checkMessage(body, issues);
  const account = await messagingAccount(deps, orgId, accountId!);
  const origin = body[account.network] as Record<string, unknown> | undefined;
  const commentId = origin?.comment_id;
  const authorId = origin?.author_id;
  if (typeof commentId !== 'string' || !commentId) issues.push({ field: `${account.network}.comment_id`, message: 'must be the commentId of the comment.received event' });
  if (typeof authorId !== 'string' || !authorId) issues.push({ field: `${account.network}.author_id`, message: 'must be the authorId of the comment.received event' });
  if (issues.length) throw validationError(issues);
  if (await privateReplyExists(deps.db, account.id, commentId as string)) {
    throw new RequestError(409, `This comment already has its private reply: ${account.network} allows one per comment`, { code: 'private_reply_exists' });
  }
  const { conversation } = await ensureConversation(deps.db, account, authorId as string);
  return deliver(deps, account, conversation, message, { commentId: commentId as string });
}

/** The account, when it can send direct messages; else the reason as a RequestError. */
async function messagingAccount(deps: SendDeps, orgId: number, accountId: number): Promise<MessagingAccount> {
  const { rows } = await deps.db.query<{ network: NetworkId; messaging: boolean; is_active: boolean }>(
    'SELECT network, messaging, is_active FROM social_accounts WHERE id = $1 AND org_id = $2',
    [accountId, orgId],
  );
  const row = rows[0];
  if (!row) throw new RequestError(404, 'Social account not found', { code: 'not_found' });
  const { label } = deps.networks.get(row.network);
  const messages = deps.networks.capabilities(row.network).messages;
  if (!messages) throw new RequestError(400, `${label} accounts have no direct messages Crier can send`, { code: 'not_supported' });
  if (!row.messaging) {
    throw new RequestError(403, `This ${label} account was connected without the messaging scope: connect it again with POST /v1/social-networks/${row.network}/auth-url {"scopes": ["messaging"]}`, { code: 'messaging_not_enabled' });
  }
  if (!row.is_active) throw new RequestError(409, `The ${label} account is disconnected: reconnect it first`, { code: 'account_disconnected' });
  const { session } = await accountSession(deps.db, deps.box, accountId, deps.userFetch);
  return { id: accountId, orgId, network: row.network, messages, session };
}

async function deliver(deps: SendDeps, account: MessagingAccount, conversation: ConversationRow, message: OutgoingMessage, to: { recipientId: string } | { commentId: string }) {
  const stored = await storeSending(deps.db, account, conversation, message, 'commentId' in to ? to.commentId : null);
  let sent: { platformMessageId: string };
  try {
    sent = await account.messages.send(account.session, to, message);
  } catch (error) {
    const reason = error instanceof PublishError ? error.message : `could not send: ${(error as Error).message}`;
    await recordFailure(deps.db, account, conversation, stored.id, reason);
    throw refusal(error, reason, stored.id);
  }
  const row = await recordSent(deps.db, account, conversation, stored.id, sent.platformMessageId);
  const latest = (await findConversation(deps.db, account.orgId, conversation.id))!;
  return { conversation: conversationJson(latest), message: messageJson(row) };
}

async function storeSending(db: Queryable, account: MessagingAccount, conversation: ConversationRow, message: OutgoingMessage, commentId: string | null): Promise<MessageRow> {
  try {
    const { rows } = await db.query<MessageRow>(
      `INSERT INTO messages (org_id, conversation_id, social_account_id, direction, status, text, quick_replies, comment_id)
       VALUES ($1, $2, $3, 'out', 'sending', $4, $5, $6) RETURNING *`,
      [account.orgId, conversation.id, account.id, message.text, message.quickReplies ? JSON.stringify(message.quickReplies) : null, commentId],
    );
    return rows[0]!;
  } catch (error) {
    // Two requests for one comment at once: the unique index lets one through.
    if ((error as { code?: string }).code === '23505') throw new RequestError(409, 'This comment already has its private reply', { code: 'private_reply_exists' });
    throw error;
  }
}

async function recordSent(db: Db, account: MessagingAccount, conversation: ConversationRow, messageId: number, platformMessageId: string): Promise<MessageRow> {
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<MessageRow>(
      `UPDATE messages SET status = 'sent', platform_message_id = $2, sent_at = now() WHERE id = $1 RETURNING *`,
      [messageId, platformMessageId],
    );
    await tx.query('UPDATE conversations SET updated_at = now() WHERE id = $1', [conversation.id]);
    await emitStarted(tx, account, conversation);
    const data: EventDataMap['message.sent'] = {
      conversationId: encodeId(conversation.id),
      messageId: encodeId(messageId),
      orgId: encodeId(account.orgId),
      network: account.network,
      platformMessageId,
      source: 'api',
    };
    await emitEvent(tx, account.orgId, 'message.sent', { ...data });
    return rows[0]!;
  });
}

async function recordFailure(db: Db, account: MessagingAccount, conversation: ConversationRow, messageId: number, reason: string): Promise<void> {
  await withTransaction(db, async (tx) => {
    await tx.query(`UPDATE messages SET status = 'failed', error = $2 WHERE id = $1`, [messageId, reason]);
    const data: EventDataMap['message.failed'] = {
      conversationId: encodeId(conversation.id),
      messageId: encodeId(messageId),
      orgId: encodeId(account.orgId),
      network: account.network,
      error: reason,
    };
    await emitEvent(tx, account.orgId, 'message.failed', { ...data });
  });
}

/** The network's refusal as the API's answer: the message (stored as failed) is named in it. */
function refusal(error: unknown, reason: string, messageId: number): RequestError {
  const named = `${reason} (message ${encodeId(messageId)} is stored as failed)`;
  if (!(error instanceof PublishError)) return new RequestError(502, named, { code: 'network_error' });
  if (error.kind === 'auth') return new RequestError(409, named, { code: 'account_token_rejected' });
  if (error.kind === 'permanent') return new RequestError(422, named, { code: 'message_refused' });
  const retryAfter = error.retryAfterMs ? { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) } : undefined;
  return new RequestError(502, named, { code: 'network_error', ...(retryAfter ? { headers: retryAfter } : {}) });
}

async function privateReplyExists(db: Queryable, accountId: number, commentId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM messages WHERE social_account_id = $1 AND comment_id = $2 AND status <> 'failed'`, [accountId, commentId]);
  return rows.length > 0;
}
