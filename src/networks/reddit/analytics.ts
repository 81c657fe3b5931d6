// Reddit has no insights API: a post's figures are what /api/info shows of it (score, upvote_ratio,
// num_comments, view_count — null for API clients), an account's its karma from /api/v1/me and the
// subscribers of its profile subreddit (followers). Nothing is ranged: they are current totals.
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { clientOf, fullname } from './session.ts';

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export async function redditPostMetrics(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const root = fullname('t3', post.root.platformId);
  const [thing] = await clientOf(apiUrl, session).info([root]);
  if (!thing || thing.data.removed_by_category === 'deleted') throw new PublishError('permanent', `reddit: ${root} is no longer on Reddit`, undefined, 'not_found');
  const d = thing.data;
  return {
    // `score` is net votes (upvotes minus downvotes, fuzzed by Reddit): the closest Reddit has to likes.
    likes: numberOrNull(d.score),
    comments: numberOrNull(d.num_comments),
    shares: null,
    views: numberOrNull(d.view_count),
    reach: null,
    saves: null,
    impressions: null,
    platform_specific: pick(d, ['score', 'upvote_ratio', 'num_comments', 'num_crossposts', 'view_count', 'total_awards_received']),
  };
}

export async function redditAccountMetrics(apiUrl: string, session: AccountSession): Promise<AccountMetrics> {
  const me = await clientOf(apiUrl, session).me();
  const profile = (me.subreddit ?? {}) as Record<string, unknown>;
  return {
    followers: numberOrNull(profile.subscribers),
    following: null,
    posts: null,
    // Lifetime karma: Reddit's only measure of how the account's posts and comments were received.
    engagement: numberOrNull(me.total_karma),
    ranged: false,
    platform_specific: pick(me, ['link_karma', 'comment_karma', 'total_karma', 'awardee_karma', 'awarder_karma']),
  };
}

function pick(from: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => from[name] !== undefined).map((name) => [name, from[name]]));
}
