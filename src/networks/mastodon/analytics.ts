// Counts, the only figures Mastodon gives (no views, reach or impressions exist): a post's from
// GET /api/v1/statuses/:id (https://docs.joinmastodon.org/methods/statuses/#get) and the account's
// current totals from GET /api/v1/accounts/verify_credentials
// (https://docs.joinmastodon.org/methods/accounts/#verify_credentials).
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { clientFor, statusPath, type StatusView } from './account-client.ts';

const count = (value: unknown) => (typeof value === 'number' ? value : null);

/**
 * Likes and boosts are the root's. Comments are the direct replies to any of the post's statuses
 * (each status's `replies_count`) less the thread's own later statuses, which answer the root: the
 * same top-level comments `comments.list` shows. A thread reads each of its statuses once.
 */
export async function postMetrics(trusted: string | undefined, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const client = clientFor(trusted, session);
  const parts = post.parts.length ? post.parts : [post.root];
  const statuses: StatusView[] = [];
  for (const part of parts) statuses.push((await client.call<StatusView>({ path: statusPath(part.platformId) })).body);
  const root = statuses[0]!;
  const replies = statuses.map((s) => count(s.replies_count));
  const ownAnswers = statuses.slice(1).filter((s) => parts.some((p) => p.platformId === s.in_reply_to_id)).length;
  const comments = replies.includes(null) ? null : Math.max(0, (replies as number[]).reduce((a, b) => a + b, 0) - ownAnswers);
  return {
    likes: count(root.favourites_count),
    comments,
    shares: count(root.reblogs_count),
    views: null,
    reach: null,
    saves: null,
    impressions: null,
    platform_specific: {
      favourites_count: count(root.favourites_count), reblogs_count: count(root.reblogs_count), replies_count: count(root.replies_count),
      ...('quotes_count' in root ? { quotes_count: count(root.quotes_count) } : {}),
      ...(root.edited_at ? { edited_at: root.edited_at } : {}),
    },
  };
}

export async function accountMetrics(trusted: string | undefined, session: AccountSession): Promise<AccountMetrics> {
  const client = clientFor(trusted, session);
  const me = (await client.call<Record<string, unknown>>({ path: '/api/v1/accounts/verify_credentials' })).body;
  return {
    followers: count(me.followers_count),
    following: count(me.following_count),
    posts: count(me.statuses_count),
    engagement: null,
    ranged: false,
    platform_specific: { ...(typeof me.last_status_at === 'string' ? { last_status_at: me.last_status_at } : {}) },
  };
}
