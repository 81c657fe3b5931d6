// Deleting a published post: every message Crier sent, the later containers first. A webhook's with
// Delete Webhook Message (https://discord.com/developers/docs/resources/webhook#delete-webhook-message),
// each in its thread when it is in one (`thread_id`); a bot's with Delete Message
// (resources/message#delete-message) in the message's channel or thread. Each may delete its own
// messages at any age. A message already gone (Unknown Message) counts as removed by someone else; a
// deleted webhook or a refused bot token is an `auth` refusal (connect it again). A bucket allows a few
// calls a second: a short 429 is waited out here, as Discord asks.
import type { AccountSession } from '../capabilities.ts';
import type { PartRef, PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { requireAccountKey } from './account.ts';
import { DiscordBotClient } from './bot-client.ts';
import { DiscordClient } from './client.ts';

/** How one message is deleted: by the webhook (in its thread), or by the bot (in its channel). */
export type PartCall = (part: PartRef) => Promise<void>;

/** The account's way of making a call about one of its messages: `webhook` or `bot`, as it was connected. */
export function partCalls(origin: string, configured: string | undefined, session: AccountSession) {
  const key = requireAccountKey(session.account.credential, configured);
  const threadOf = (part: PartRef) => part.ref?.threadId as string | undefined;
  const channelOf = (part: PartRef) => String(part.ref?.channelId ?? (key.kind === 'bot' ? key.bot.channelId : ''));
  if (key.kind === 'bot') {
    const bot = new DiscordBotClient(origin, key.bot);
    return {
      remove: (part: PartRef) => bot.deleteMessage(channelOf(part), part.platformId),
      edit: (part: PartRef, content: string) => bot.editContent(channelOf(part), part.platformId, content),
    };
  }
  const webhook = new DiscordClient(origin, key.webhook);
  return {
    remove: (part: PartRef) => webhook.deleteMessage(part.platformId, threadOf(part)),
    edit: (part: PartRef, content: string) => webhook.editContent(part.platformId, threadOf(part), content),
  };
}

export async function removePost(origin: string, configured: string | undefined, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const calls = partCalls(origin, configured, session);
  const parts = post.parts.length ? post.parts : [post.root];
  let removed = false;
  for (const part of [...parts].reverse()) {
    if (await deleteOne(() => calls.remove(part))) removed = true;
  }
  return removed ? 'removed' : 'absent';
}

/** A 429 this short is waited out in the call (a thread's deletes exceed a bucket); a longer one fails it. */
const WAIT_AT_MOST_MS = 10_000;
const TRIES = 4;

/** The call, a short 429 waited out; false when Discord no longer had the message. */
export async function withShortWaits(call: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const wait = error instanceof PublishError && error.code === 'rate_limited' ? error.retryAfterMs ?? WAIT_AT_MOST_MS + 1 : undefined;
      if (wait === undefined || wait > WAIT_AT_MOST_MS || attempt === TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** True when the message was deleted, false when Discord no longer had it. */
async function deleteOne(call: () => Promise<void>): Promise<boolean> {
  try {
    await withShortWaits(call);
    return true;
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') return false;
    throw error;
  }
}
