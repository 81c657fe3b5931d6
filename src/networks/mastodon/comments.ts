// A post's comments on Mastodon: GET /api/v1/statuses/:id/context of the root
// (https://docs.joinmastodon.org/methods/statuses/#context) gives every reply below it at any depth in
// one answer (`descendants`; no paging: one page), each naming the status it answers
// (`in_reply_to_id`). A Crier thread's later statuses are the account's own replies to the root: they
// are the post, not comments, so the top-level comments are the replies to the root or to any of the
// post's own statuses, and the tree is rebuilt from `in_reply_to_id` below them.
//
// Answering is POST /api/v1/statuses with `in_reply_to_id` (the comment, else the root) as Mastodon's
// web client composes a reply (app/javascript/mastodon/reducers/compose.js, COMPOSE_REPLY): the
// visibility is the narrower of the parent's and the account's default (`source.privacy`), never
// wider than the parent, so a followers-only conversation stays followers-only; and the text starts
// with `@acct ` for the parent's author and each account it mentions (the account itself left out),
// where the text does not already mention them: without the mention, the author of a followers-only or
// direct status could not see the answer, nor be notified of it. An Idempotency-Key is chosen per
// answer; an instance that could not be reached is asked once more under the same key, which cannot
// make a second status.
import { randomUUID } from 'node:crypto';
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { MastodonClient } from './client.ts';
import { accountIdOf, clientFor, statusPath, type StatusView } from './account-client.ts';
import { plainText } from './html.ts';

const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
type Visibility = (typeof VISIBILITIES)[number];

interface Context {
  ancestors: StatusView[];
  descendants: (StatusView & { mentions?: { acct: string }[] })[];
}

const partsOf = (post: PublishedPost) => (post.parts.length ? post.parts : [post.root]);

async function contextOf(client: MastodonClient, rootId: string): Promise<Context> {
  return (await client.call<Context>({ path: `${statusPath(rootId)}/context` })).body;
}

export function replyOf(status: StatusView): Reply {
  const { account } = status;
  return {
    id: status.id,
    author: account.id,
    author_name: account.display_name || null,
    author_username: account.acct,
    ...(account.avatar ? { author_avatar_url: account.avatar } : {}),
    ...(account.url ? { author_profile_url: account.url } : {}),
    text: plainText(status.content),
    created_at: status.created_at ?? null,
    ...(typeof status.favourites_count === 'number' ? { like_count: status.favourites_count } : {}),
    platform_specific: {
      visibility: status.visibility, url: status.url ?? status.uri, in_reply_to_id: status.in_reply_to_id,
      ...(status.spoiler_text ? { spoiler_text: status.spoiler_text } : {}),
      ...(status.edited_at ? { edited_at: status.edited_at } : {}),
      replies_count: status.replies_count ?? null, reblogs_count: status.reblogs_count ?? null,
      media_count: status.media_attachments?.length ?? 0,
    },
  };
}

export async function listComments(trusted: string | undefined, session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
  const client = clientFor(trusted, session);
  const { descendants } = await contextOf(client, post.root.platformId);
  const own = new Set(partsOf(post).map((p) => p.platformId));
  const comments = descendants.filter((s) => !own.has(s.id));
  const byParent = new Map<string, StatusView[]>();
  for (const status of comments) byParent.set(status.in_reply_to_id ?? '', [...(byParent.get(status.in_reply_to_id ?? '') ?? []), status]);
  const toReply = (status: StatusView): Reply => {
    const reply = replyOf(status);
    if (options.includeReplies) reply.replies = (byParent.get(status.id) ?? []).map(toReply);
    return reply;
  };
  // The context walks the tree depth first, so the comments on a later status of the thread would
  // follow all of the root's; the top level is put back in the order they were written.
  const topLevel = comments.filter((s) => s.in_reply_to_id !== null && own.has(s.in_reply_to_id)).sort(byAge);
  return { items: topLevel.map(toReply) };
}

/** Oldest first: ids are time-ordered numbers on an instance (Snowflake-like), else the creation time. */
function byAge(a: StatusView, b: StatusView): number {
  if (/^\d+$/.test(a.id) && /^\d+$/.test(b.id)) return BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0;
  return Date.parse(a.created_at) - Date.parse(b.created_at);
}

/** The narrower of two visibilities (public < unlisted < private < direct). */
const narrower = (a: Visibility, b: Visibility | undefined): Visibility => VISIBILITIES[Math.max(VISIBILITIES.indexOf(a), b ? VISIBILITIES.indexOf(b) : 0)]!;

/** `@acct ` for each account the answer should mention that the text does not already name. */
function mentionsFor(parent: StatusView & { mentions?: { acct: string }[] }, selfId: string, selfAcct: string | undefined, text: string): string {
  const accts = [parent.account.id === selfId ? undefined : parent.account.acct, ...(parent.mentions ?? []).map((m) => m.acct)]
    .filter((acct): acct is string => !!acct && acct !== selfAcct);
  const named = (acct: string) => new RegExp(`(^|[^\\w@])@${acct.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w@.-]*\\w)`, 'i').test(text);
  return [...new Set(accts)].filter((acct) => !named(acct)).map((acct) => `@${acct} `).join('');
}

export async function replyToPost(trusted: string | undefined, session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
  if (text.trim() === '') throw new PublishError('permanent', 'mastodon: the reply text is empty', undefined, 'invalid');
  const client = clientFor(trusted, session);
  const parent = parentCommentId === undefined ? await rootStatus(client, post) : await commentOf(client, post, parentCommentId);
  const me = (await client.call<StatusView['account'] & { source?: { privacy?: Visibility } }>({ path: '/api/v1/accounts/verify_credentials' })).body;
  const body = {
    status: mentionsFor(parent, accountIdOf(session), me.acct, text) + text,
    in_reply_to_id: parent.id,
    visibility: narrower(parent.visibility, me.source?.privacy),
  };
  const request = { path: '/api/v1/statuses', method: 'POST', json: body, headers: { 'idempotency-key': randomUUID() } };
  const sent = await client.call<StatusView>(request).catch((error: unknown) => {
    if (error instanceof PublishError && error.code === 'unreachable') return client.call<StatusView>(request);
    throw error;
  });
  return { replyId: sent.body.id };
}

async function rootStatus(client: MastodonClient, post: PublishedPost): Promise<StatusView> {
  return (await client.call<StatusView>({ path: statusPath(post.root.platformId) })).body;
}

/** The comment answered: a reply below the post's root that is not one of the post's own statuses. */
async function commentOf(client: MastodonClient, post: PublishedPost, commentId: string): Promise<Context['descendants'][number]> {
  const own = new Set(partsOf(post).map((p) => p.platformId));
  const found = (await contextOf(client, post.root.platformId)).descendants.find((s) => s.id === commentId && !own.has(s.id));
  if (!found) throw new PublishError('permanent', `mastodon: ${commentId} is not a comment of this post (deleted, or not in its thread)`, undefined, 'not_found');
  return found;
}
