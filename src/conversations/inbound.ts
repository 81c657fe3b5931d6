// Direct messages arriving in inbound deliveries: a contact's message is stored and emitted as
// message.received (with conversation.started for a new conversation); an echo of what the account
// sent is dropped when Crier sent it (already emitted as message.sent), or relayed as message.sent
// from the network's own app (not stored). Every redelivery of an item emits nothing.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { encodeId } from '../core/ids.ts';
import type { AccountSession, InboundItem, NetworkCapabilities } from '../networks/capabilities.ts';
import type { InboundAccount } from '../accounts/inbound-accounts.ts';
import type { EventDataMap } from '../webhooks/events.ts';
import { emitEvent } from '../webhooks/outbox.ts';
import { contactProfile } from './contacts.ts';
import { claimStarted, ensureConversation, type ConversationRow } from './store.ts';

type MessageItem = Extract<InboundItem, { kind: 'message' }>;

/** How long a send's echo waits for the send to be recorded before it is taken for the app's own. */
const SEND_IN_FLIGHT_MS = 120_000;

export interface MessageDeps {
  db: Db;
  session: () => Promise<AccountSession>;
  messages: NonNullable<NetworkCapabilities['messages']>;
}

export async function receiveMessage(deps: MessageDeps, account: InboundAccount, item: MessageItem): Promise<void> {
  if (await storedMessage(deps.db, account.id, item.platformMessageId)) return;
  if (item.direction === 'echo') return relayEcho(deps, account, item);
  // Looked up on arrival: what the contact's profile says now.
  const sender = contactProfile(await deps.messages.contact(await deps.session(), item.participantId).catch(() => null));
  await withTransaction(deps.db, async (tx) => {
    const { conversation } = await ensureConversation(tx, account, item.participantId);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO messages (org_id, conversation_id, social_account_id, direction, status, text, interaction_id, platform_message_id, sent_at)
       VALUES ($1, $2, $3, 'in', 'received', $4, $5, $6, $7)
       ON CONFLICT (social_account_id, platform_message_id) WHERE platform_message_id IS NOT NULL DO NOTHING RETURNING id`,
      [account.orgId, conversation.id, account.id, item.text, item.quickReplyId ?? null, item.platformMessageId, item.sentAt],
    );
    if (!rows[0]) return;
    await tx.query(
      `UPDATE conversations SET last_inbound_at = greatest(coalesce(last_inbound_at, $2::timestamptz), $2::timestamptz), updated_at = now() WHERE id = $1`,
      [conversation.id, item.sentAt],
    );
    await emitStarted(tx, account, conversation);
    const data: EventDataMap['message.received'] = {
      conversationId: encodeId(conversation.id),
      messageId: encodeId(rows[0].id),
      orgId: encodeId(account.orgId),
      network: account.network,
      content: item.text,
      senderId: item.participantId,
      sentAt: item.sentAt,
      sender,
      ...(item.quickReplyId !== undefined ? { interaction: { type: 'quick_reply' as const, id: item.quickReplyId } } : {}),
    };
    await emitEvent(tx, account.orgId, 'message.received', { ...data });
  });
}

/** The account wrote from the network's own app: relayed once as message.sent, not stored. */
async function relayEcho(deps: MessageDeps, account: InboundAccount, item: MessageItem): Promise<void> {
  // The echo of a send Crier has not recorded yet is looked at again (the delivery is retried) once it is.
  if (await sendInFlight(deps.db, account.id, item.participantId)) {
    throw new Error(`a message to ${item.participantId} is being sent: its echo is processed once the send is recorded`);
  }
  await withTransaction(deps.db, async (tx) => {
    const { rowCount } = await tx.query(
      `INSERT INTO inbound_seen (social_account_id, kind, item_id) VALUES ($1, 'echo', $2) ON CONFLICT DO NOTHING`,
      [account.id, item.platformMessageId],
    );
    if (!rowCount) return;
    const { conversation } = await ensureConversation(tx, account, item.participantId);
    await emitStarted(tx, account, conversation);
    const data: EventDataMap['message.sent'] = {
      conversationId: encodeId(conversation.id),
      messageId: null,
      orgId: encodeId(account.orgId),
      network: account.network,
      platformMessageId: item.platformMessageId,
      source: 'native_app',
      content: item.text,
    };
    await emitEvent(tx, account.orgId, 'message.sent', { ...data });
  });
}

/** conversation.started, the first time one of the conversation's messages is emitted. */
export async function emitStarted(db: Queryable, account: { orgId: number; network: string }, conversation: ConversationRow): Promise<void> {
  if (!(await claimStarted(db, conversation.id))) return;
  const data: EventDataMap['conversation.started'] = {
    conversationId: encodeId(conversation.id),
    orgId: encodeId(account.orgId),
    network: account.network,
    participantId: conversation.participant_id,
  };
  await emitEvent(db, account.orgId, 'conversation.started', { ...data });
}

async function storedMessage(db: Queryable, accountId: number, platformMessageId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM messages WHERE social_account_id = $1 AND platform_message_id = $2', [accountId, platformMessageId]);
  return rows.length > 0;
}

async function sendInFlight(db: Queryable, accountId: number, participantId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.social_account_id = $1 AND c.participant_id = $2 AND m.status = 'sending' AND m.created_at > now() - make_interval(secs => $3::float8 / 1000)`,
    [accountId, participantId, SEND_IN_FLIGHT_MS],
  );
  return rows.length > 0;
}
