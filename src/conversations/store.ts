// Conversations and their messages as stored: one conversation per (account, contact), created by
// the contact's first message or the account's first send; messages received, sent and failed.
import type { Queryable } from '../db/pool.ts';
import { encodeId } from '../core/ids.ts';
import type { NetworkId } from '../core/network-id.ts';

export interface ConversationRow {
  id: number;
  org_id: number;
  social_account_id: number;
  network: NetworkId;
  participant_id: string;
  last_inbound_at: Date | null;
  started: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface MessageRow {
  id: number;
  conversation_id: number;
  direction: 'in' | 'out';
  status: 'received' | 'sending' | 'sent' | 'failed';
  text: string;
  quick_replies: { id: string; title: string }[] | null;
  interaction_id: string | null;
  comment_id: string | null;
  platform_message_id: string | null;
  error: string | null;
  sent_at: Date;
}

export function conversationJson(row: ConversationRow) {
  return {
    id: encodeId(row.id),
    socialAccountId: encodeId(row.social_account_id),
    network: row.network,
    participantId: row.participant_id,
    lastInboundAt: row.last_inbound_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function messageJson(row: MessageRow) {
  return {
    id: encodeId(row.id),
    conversationId: encodeId(row.conversation_id),
    direction: row.direction,
    status: row.status,
    text: row.text,
    quickReplies: row.quick_replies,
    interaction: row.interaction_id !== null ? { type: 'quick_reply' as const, id: row.interaction_id } : null,
    commentId: row.comment_id,
    platformMessageId: row.platform_message_id,
    error: row.error,
    sentAt: row.sent_at.toISOString(),
  };
}

/** The conversation of (account, contact), created when missing; `created` says which. */
export async function ensureConversation(
  db: Queryable, account: { id: number; orgId: number; network: NetworkId }, participantId: string,
): Promise<{ conversation: ConversationRow; created: boolean }> {
  const { rows } = await db.query<ConversationRow & { created: boolean }>(
    `INSERT INTO conversations (org_id, social_account_id, network, participant_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (social_account_id, participant_id) DO UPDATE SET updated_at = now()
     RETURNING *, (xmax = 0) AS created`,
    [account.orgId, account.id, account.network, participantId],
  );
  const { created, ...conversation } = rows[0]!;
  return { conversation, created };
}

/** Marks conversation.started as emitted; true the first time (the caller emits it then). */
export async function claimStarted(db: Queryable, conversationId: number): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE conversations SET started = true WHERE id = $1 AND NOT started', [conversationId]);
  return (rowCount ?? 0) > 0;
}

/** Has the contact written to the account (a stored conversation with a message from them)? */
export async function hasMessaged(db: Queryable, accountId: number, participantId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM conversations WHERE social_account_id = $1 AND participant_id = $2 AND last_inbound_at IS NOT NULL', [accountId, participantId]);
  return rows.length > 0;
}

export async function findConversation(db: Queryable, orgId: number, id: number): Promise<ConversationRow | undefined> {
  const { rows } = await db.query<ConversationRow>('SELECT * FROM conversations WHERE id = $1 AND org_id = $2', [id, orgId]);
  return rows[0];
}

export async function listConversations(db: Queryable, orgId: number, accountId: number, page: { limit: number; offset: number }): Promise<ConversationRow[]> {
  const { rows } = await db.query<ConversationRow>(
    'SELECT * FROM conversations WHERE org_id = $1 AND social_account_id = $2 ORDER BY updated_at DESC, id DESC LIMIT $3 OFFSET $4',
    [orgId, accountId, page.limit, page.offset],
  );
  return rows;
}

export async function listMessages(db: Queryable, conversationId: number, page: { limit: number; offset: number }): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    'SELECT * FROM messages WHERE conversation_id = $1 ORDER BY sent_at, id LIMIT $2 OFFSET $3',
    [conversationId, page.limit, page.offset],
  );
  return rows;
}
