// Editing a published post's texts: each message's content, as the edit capability asks
// (../capabilities.ts). A webhook's message with Edit Webhook Message
// (https://discord.com/developers/docs/resources/webhook#edit-webhook-message, `thread_id` when it is
// in a thread), a bot's with Edit Message (resources/message#edit-message). Only `content` is sent
// (with no mentions resolved, as at publish): every field of an edit is optional, and what the body
// leaves out — the root's embeds, the files, the flags — stays as it was. Discord sets the message's
// `edited_timestamp` and keeps no time limit on editing one's own message. A message gone is
// `not_found`; the caller has judged the new texts (2,000 characters a message) already.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { partCalls, withShortWaits } from './remove.ts';

export async function editPost(origin: string, configured: string | undefined, session: AccountSession, post: PublishedPost, texts: readonly (string | undefined)[]): Promise<void> {
  const calls = partCalls(origin, configured, session);
  const parts = post.parts.length ? post.parts : [post.root];
  for (const [i, text] of texts.entries()) {
    const part = parts[i];
    if (text === undefined || !part) continue;
    await withShortWaits(() => calls.edit(part, text));
  }
}
