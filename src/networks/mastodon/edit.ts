// Changing a published post's text: PUT /api/v1/statuses/:id for each status given a new text
// (https://docs.joinmastodon.org/methods/statuses/#edit). An edit replaces the status with what the
// request carries: Mastodon's controller passes every parameter to UpdateStatusService, which detaches
// the media when `media_ids` is absent, removes the poll when `poll` is absent and clears the content
// warning when `spoiler_text` is absent (only `language` is kept when omitted). So each status is read
// first (GET /api/v1/statuses/:id: the adapter's ref keeps no media ids) and sent back with its
// content warning, sensitivity, language, media and poll. A poll sent with the same options and
// `multiple` keeps its votes; its end is `expires_in` from the edit, so the time it has left is sent.
// Every status is read before any is changed: a post whose status is gone changes nothing.
// Refusals are client.ts's: 404 (gone, or not the account's) `not_found`, 422 `invalid`.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { MastodonClient } from './client.ts';
import { clientFor, statusPath, type StatusView } from './account-client.ts';

type PollView = NonNullable<StatusView['poll']>;

/** The poll as PUT takes it back; totals hidden show as null vote counts until the poll ends (Poll entity). */
function pollParams(poll: PollView, now = Date.now()): Record<string, unknown> {
  const left = poll.expires_at ? Math.max(0, Math.ceil((Date.parse(poll.expires_at) - now) / 1000)) : undefined;
  return {
    options: poll.options.map((o) => o.title),
    multiple: poll.multiple,
    hide_totals: poll.options.some((o) => o.votes_count === null),
    ...(left !== undefined ? { expires_in: left } : {}),
  };
}

/** The edit's body: the new text, and everything the status keeps. */
export function editBody(status: StatusView, text: string): Record<string, unknown> {
  return {
    status: text,
    spoiler_text: status.spoiler_text ?? '',
    sensitive: status.sensitive,
    ...(status.language ? { language: status.language } : {}),
    ...(status.media_attachments?.length ? { media_ids: status.media_attachments.map((m) => m.id) } : {}),
    ...(status.poll ? { poll: pollParams(status.poll) } : {}),
  };
}

async function read(client: MastodonClient, id: string): Promise<StatusView> {
  return (await client.call<StatusView>({ path: statusPath(id) })).body;
}

export async function editPost(trusted: string | undefined, session: AccountSession, post: PublishedPost, texts: readonly (string | undefined)[]): Promise<void> {
  const parts = post.parts.length ? post.parts : [post.root];
  if (texts.length > parts.length) throw new PublishError('permanent', `mastodon: ${texts.length} texts for a post of ${parts.length} statuses`, undefined, 'invalid');
  const client = clientFor(trusted, session);
  const edits: { id: string; body: Record<string, unknown> }[] = [];
  for (const [i, text] of texts.entries()) {
    if (text === undefined) continue;
    const status = await read(client, parts[i]!.platformId);
    edits.push({ id: status.id, body: editBody(status, text) });
  }
  for (const edit of edits) await client.call({ path: statusPath(edit.id), method: 'PUT', json: edit.body });
}
