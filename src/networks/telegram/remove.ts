// Deleting a published post: deleteMessage (https://core.telegram.org/bots/api#deletemessage) for
// every message Crier sent — each container's, an album's every one — the later containers first. A
// bot may delete its own messages in a channel it posts to and in a group, for 48 hours; after that
// Telegram answers "message can't be deleted" and the post stays (the refusal says so).
import type { AccountSession } from '../capabilities.ts';
import type { PartRef, PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { TelegramClient } from './client.ts';

export async function removePost(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const token = session.account.credential;
  if (!token) throw new PublishError('auth', 'telegram: no bot token is stored for the account; connect it again');
  const client = new TelegramClient(apiUrl, token);
  const parts = post.parts.length ? post.parts : [post.root];
  let removed = false;
  for (const part of [...parts].reverse()) {
    for (const messageId of [...messageIdsOf(part)].reverse()) {
      if (await deleteOne(client, session.account.networkUniqueId, messageId)) removed = true;
    }
  }
  return removed ? 'removed' : 'absent';
}

/** An album's messages (kept in its ref when published), else the one message. */
function messageIdsOf(part: PartRef): number[] {
  const ids = part.ref?.messageIds;
  return Array.isArray(ids) && ids.length ? ids.map(Number) : [Number(part.platformId)];
}

/** True when the message was deleted, false when Telegram no longer had it. */
async function deleteOne(client: TelegramClient, chatId: string, messageId: number): Promise<boolean> {
  try {
    await client.call<boolean>('deleteMessage', { chat_id: chatId, message_id: messageId });
    return true;
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') return false;
    if (error instanceof PublishError && /can't be deleted/i.test(error.message)) {
      throw new PublishError('permanent', `${error.message} (a bot may delete its messages for 48 hours after sending them)`, undefined, 'forbidden');
    }
    throw error;
  }
}
