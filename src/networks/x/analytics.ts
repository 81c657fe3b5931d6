// Figures of a post and of the account. A post's public_metrics are always readable; its
// non_public_metrics only by its author and only for posts of the last 30 days, so they are asked
// for only then (the post's age is read from its id, a snowflake: no extra call). The account's
// figures are X's current totals (no history): `ranged` is false.
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { checkPostId, clientFor, createdAtOf, notFoundIn } from './session.ts';

/** "Non-public, organic, and promoted metrics are only available for Posts … created within the last 30 days"; a margin for clocks. */
const PRIVATE_METRICS_MS = 30 * 86_400_000 - 10 * 60_000;

interface TweetMetrics {
  public_metrics?: Record<string, number>;
  non_public_metrics?: Record<string, number>;
}

export async function postMetrics(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const id = post.root.platformId;
  checkPostId(id, 'post');
  const client = clientFor(apiUrl, session);
  const recent = Date.now() - createdAtOf(id).getTime() < PRIVATE_METRICS_MS;
  const fields = recent ? ['public_metrics', 'non_public_metrics'] : ['public_metrics'];
  const body = (await client.readPosts(`/2/tweets/${id}`, {}, fields)) as { data?: TweetMetrics; errors?: { detail?: string }[] };
  if (!body.data) {
    const gone = notFoundIn(body);
    throw new PublishError('permanent', `x: ${gone ?? body.errors?.[0]?.detail ?? `post ${id} could not be read`}`, undefined, gone ? 'not_found' : 'invalid');
  }
  return metricsOf(body.data, post.parts.length - 1);
}

/** `ownAnswers`: the thread's own containers, which reply to the root and are not comments. */
function metricsOf(tweet: TweetMetrics, ownAnswers: number): PostMetrics {
  const pub = tweet.public_metrics ?? {};
  const priv = tweet.non_public_metrics;
  const count = (value: number | undefined) => (typeof value === 'number' ? value : null);
  const shares = typeof pub.retweet_count === 'number' || typeof pub.quote_count === 'number' ? (pub.retweet_count ?? 0) + (pub.quote_count ?? 0) : null;
  return {
    likes: count(pub.like_count),
    comments: typeof pub.reply_count === 'number' ? Math.max(0, pub.reply_count - ownAnswers) : null,
    shares,
    // X's impression_count is how many times the post was shown: its view figure.
    views: count(pub.impression_count),
    reach: null,
    saves: count(pub.bookmark_count),
    impressions: count(priv?.impression_count ?? pub.impression_count),
    platform_specific: {
      reply_count: count(pub.reply_count),
      retweet_count: count(pub.retweet_count),
      quote_count: count(pub.quote_count),
      ...(priv ? { url_link_clicks: count(priv.url_link_clicks), user_profile_clicks: count(priv.user_profile_clicks), engagements: count(priv.engagements) } : {}),
    },
  };
}

export async function accountMetrics(apiUrl: string, session: AccountSession): Promise<AccountMetrics> {
  const client = clientFor(apiUrl, session);
  const body = (await client.request('GET', '/2/users/me?user.fields=public_metrics')) as { data?: { public_metrics?: Record<string, number> } };
  const m = body.data?.public_metrics ?? {};
  const count = (value: number | undefined) => (typeof value === 'number' ? value : null);
  return {
    followers: count(m.followers_count),
    following: count(m.following_count),
    posts: count(m.tweet_count),
    engagement: null,
    ranged: false,
    platform_specific: { listed_count: count(m.listed_count), like_count: count(m.like_count) },
  };
}
