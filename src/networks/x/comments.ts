// A post's replies on X: recent search `conversation_id:{root}` (the last 7 days only: older replies
// need the full-archive search, not on ordinary plans), with the authors expanded. Each reply names
// its parent (referenced_tweets replied_to): the tree is rebuilt from that, any depth. Replies to the
// root or to one of the post's own thread posts are its comments; the thread posts are not.
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { XClient } from './client.ts';
import { unescape } from './own-posts.ts';
import { checkPostId, clientFor } from './session.ts';

interface SearchTweet {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  public_metrics?: { like_count?: number; reply_count?: number; retweet_count?: number; quote_count?: number };
  referenced_tweets?: { type: string; id: string }[];
  in_reply_to_user_id?: string;
}

interface SearchUser {
  id: string;
  name?: string;
  username?: string;
  profile_image_url?: string;
}

/**
 * Search pages read per call: the tree can only be rebuilt from what was read, and a reply is newer
 * than its parent, so it comes on an earlier page. Up to 500 replies are read at once (each is a
 * billed post read); beyond, `next` carries on and an answer whose parent was on another call's
 * pages is left out.
 */
const PAGES_PER_CALL = 5;

export async function listComments(apiUrl: string, session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
  const client = clientFor(apiUrl, session);
  const rootId = post.root.platformId;
  checkPostId(rootId, 'post');
  const read = await readConversation(client, rootId, options.cursor);
  const ownParts = new Set(post.parts.map((p) => p.platformId));
  const users = new Map(read.users.map((u) => [u.id, u]));
  const byParent = new Map<string, SearchTweet[]>();
  for (const tweet of read.tweets) {
    const parent = parentOf(tweet);
    if (ownParts.has(tweet.id) || !parent) continue;
    byParent.set(parent, [...(byParent.get(parent) ?? []), tweet]);
  }
  // Oldest first, as a conversation reads; search lists newest first.
  const oldestFirst = (list: SearchTweet[]) => [...list].sort((a, b) => compareIds(a.id, b.id));
  const toReply = (tweet: SearchTweet): Reply => {
    const reply = replyOf(tweet, users.get(tweet.author_id ?? ''));
    if (options.includeReplies) reply.replies = oldestFirst(byParent.get(tweet.id) ?? []).map(toReply);
    return reply;
  };
  const topLevel = [...ownParts].flatMap((id) => byParent.get(id) ?? []);
  return { items: oldestFirst(topLevel).map(toReply), ...(read.next ? { next: read.next } : {}) };
}

async function readConversation(client: XClient, rootId: string, cursor: string | undefined) {
  const tweets: SearchTweet[] = [];
  const users: SearchUser[] = [];
  let next = cursor;
  for (let page = 0; page < PAGES_PER_CALL; page++) {
    const query = {
      query: `conversation_id:${rootId}`,
      max_results: '100',
      expansions: 'author_id',
      'user.fields': 'name,username,profile_image_url',
      ...(next ? { next_token: next } : {}),
    };
    const fields = ['author_id', 'created_at', 'public_metrics', 'referenced_tweets', 'in_reply_to_user_id', 'conversation_id'];
    const body = (await client.readPosts('/2/tweets/search/recent', query, fields)) as {
      data?: SearchTweet[];
      includes?: { users?: SearchUser[] };
      meta?: { next_token?: string };
    };
    tweets.push(...(body.data ?? []));
    users.push(...(body.includes?.users ?? []));
    next = body.meta?.next_token;
    if (!next) break;
  }
  return { tweets, users, next };
}

function parentOf(tweet: SearchTweet): string | undefined {
  return tweet.referenced_tweets?.find((r) => r.type === 'replied_to')?.id;
}

function replyOf(tweet: SearchTweet, user: SearchUser | undefined): Reply {
  const metrics = tweet.public_metrics ?? {};
  return {
    id: tweet.id,
    author: tweet.author_id ?? '',
    author_name: user?.name ?? null,
    ...(user?.username ? { author_username: user.username, author_profile_url: `https://x.com/${user.username}` } : {}),
    ...(user?.profile_image_url ? { author_avatar_url: user.profile_image_url } : {}),
    text: unescape(tweet.text),
    created_at: tweet.created_at ?? null,
    ...(metrics.like_count !== undefined ? { like_count: metrics.like_count } : {}),
    platform_specific: {
      reply_count: metrics.reply_count ?? null,
      retweet_count: metrics.retweet_count ?? null,
      quote_count: metrics.quote_count ?? null,
      in_reply_to_tweet_id: parentOf(tweet) ?? null,
    },
  };
}

function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Answers the post (no parent) or one of its replies. On self-serve plans X accepts an API reply only
 * when the post answered @mentions the account or quotes one of its posts (X changelog, 23 Feb 2026);
 * its 403 then becomes a permanent error saying so.
 */
export async function replyToPost(apiUrl: string, session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
  if (text.trim() === '') throw new PublishError('permanent', 'x: the reply text is empty', undefined, 'invalid');
  const parent = parentCommentId ?? post.root.platformId;
  checkPostId(parent, 'comment');
  const client = clientFor(apiUrl, session);
  try {
    const created = await client.createTweet({ text, reply: { in_reply_to_tweet_id: parent } });
    return { replyId: created.id };
  } catch (error) {
    throw replyRefusal(error, parent, post);
  }
}

function replyRefusal(error: unknown, parent: string, post: PublishedPost): unknown {
  if (!(error instanceof PublishError) || error.code !== 'forbidden') return error;
  if (/deleted or not visible/i.test(error.message)) {
    return new PublishError('permanent', `x: post ${parent} is deleted or not visible to the account`, undefined, 'not_found');
  }
  if (post.parts.some((p) => p.platformId === parent)) return error;
  return new PublishError(
    'permanent',
    `x: X refused the reply to ${parent} (${error.message.replace(/^x: /, '')}). Since 23 Feb 2026, apps on X's self-serve plans may reply only to posts whose author @mentioned the account or quoted one of its posts; answer it from X itself, or use an Enterprise plan`,
    undefined,
    'forbidden',
  );
}
