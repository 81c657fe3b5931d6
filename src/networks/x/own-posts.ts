// The account's own posts for imports: GET /2/users/{id}/tweets, newest first, 100 a page, bounded by
// start_time/end_time. Replies are left out (a Crier thread's later posts are replies to its root,
// and answers to others are not posts to import); reposts are listed as unsupported. X lists only the
// account's 3,200 most recent posts.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { clientFor } from './session.ts';

interface TimelineTweet {
  id: string;
  text: string;
  created_at?: string;
  note_tweet?: { text?: string };
  attachments?: { media_keys?: string[] };
  referenced_tweets?: { type: string; id: string }[];
}

/** start_time's floor: "Minimum allowable time is 2010-11-06T00:00:00Z". */
const EARLIEST = Date.parse('2010-11-06T00:00:00Z');

export async function listOwnPosts(apiUrl: string, session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const client = clientFor(apiUrl, session);
  const { account } = session;
  const query: Record<string, string> = { max_results: '100', exclude: 'replies' };
  if (options.since) query.start_time = xTime(options.since, 'since');
  if (options.until) query.end_time = xTime(options.until, 'until');
  if (options.cursor) query.pagination_token = options.cursor;
  const fields = ['created_at', 'attachments', 'note_tweet', 'referenced_tweets', 'conversation_id'];
  const body = (await client.readPosts(`/2/users/${encodeURIComponent(account.networkUniqueId)}/tweets`, query, fields)) as {
    data?: TimelineTweet[];
    meta?: { next_token?: string };
  };
  const items = (body.data ?? []).map((t) => ownPost(t, account.username));
  return { items, ...(body.meta?.next_token ? { next: body.meta.next_token } : {}) };
}

function ownPost(tweet: TimelineTweet, username: string): OwnPost {
  const repost = tweet.referenced_tweets?.find((r) => r.type === 'retweeted');
  return {
    platformId: tweet.id,
    url: `https://x.com/${username}/status/${tweet.id}`,
    // A long post's whole text is in note_tweet; `text` holds its beginning.
    text: unescape(tweet.note_tweet?.text ?? tweet.text),
    createdAt: tweet.created_at ?? null,
    mediaCount: tweet.attachments?.media_keys?.length ?? 0,
    ...(repost ? { unsupported: `a repost of post ${repost.id}, not a post of the account` } : {}),
  };
}

/** X takes RFC 3339 in whole seconds, from 2010-11-06 on. */
function xTime(date: Date, name: string): string {
  if (Number.isNaN(date.getTime())) throw new PublishError('permanent', `x: ${name} is not a valid date`, undefined, 'invalid');
  return `${new Date(Math.max(date.getTime(), EARLIEST)).toISOString().slice(0, 19)}Z`;
}

/** X sends text HTML-escaped (&amp; &lt; &gt;). */
export function unescape(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
