// Deleting a published post: Delete Webhook Message
// (https://discord.com/developers/docs/resources/webhook#delete-webhook-message) for every message
// Crier sent, the later containers first, each in its thread when it is in one (`thread_id`). A webhook
// may delete only its own messages, at any age. A message already gone (Unknown Message) counts as
// removed by someone else; a deleted webhook is an `auth` refusal (connect it again). A webhook's
// bucket allows a few calls a second: a short 429 is waited out here, as Discord asks.
import type { AccountSession } from '../capabilities.ts';
import type { PartRef, PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { DiscordClient } from './client.ts';
import { parseWebhookUrl } from './webhook-url.ts';

export async function removePost(origin: string, configured: string | undefined, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const key = parseWebhookUrl(session.account.credential ?? '', configured);
  if (!key) throw new PublishError('auth', 'discord: the account has no usable webhook URL stored; connect it again');
  const client = new DiscordClient(origin, key);
  const parts = post.parts.length ? post.parts : [post.root];
  let removed = false;
  for (const part of [...parts].reverse()) {
    if (await deleteOne(client, part)) removed = true;
  }
  return removed ? 'removed' : 'absent';
}

/** A 429 this short is waited out in the call (a thread's deletes exceed a webhook bucket); a longer one fails it. */
const WAIT_AT_MOST_MS = 10_000;
const TRIES = 4;

/** True when the message was deleted, false when Discord no longer had it. */
async function deleteOne(client: DiscordClient, part: PartRef): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.deleteMessage(part.platformId, part.ref?.threadId as string | undefined);
      return true;
    } catch (error) {
      if (error instanceof PublishError && error.code === 'not_found') return false;
      const wait = error instanceof PublishError && error.code === 'rate_limited' ? error.retryAfterMs ?? WAIT_AT_MOST_MS + 1 : undefined;
      if (wait === undefined || wait > WAIT_AT_MOST_MS || attempt === TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
