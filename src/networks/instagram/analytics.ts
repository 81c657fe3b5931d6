// A media's and the account's figures (Instagram API with Facebook Login). Media: its type first
// (GET /{ig-media-id}?fields=media_product_type,…), then /{ig-media-id}/insights with the metrics
// Meta gives that type since April 2025 (views, reach, likes, comments, shares, saved,
// total_interactions; Reels add watch times; Stories replies): never `impressions` or `plays`,
// which Meta removed. Account: followers_count, follows_count and media_count on the user node,
// and /{ig-user-id}/insights metric_type=total_value over the period, in windows of at most 30
// days. Missing data is null, never 0 (Meta answers no data for media with too few viewers).
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { GraphApi, node, unixSeconds } from '../facebook/graph-api.ts';
import { lastValue, permittedInsights, readInsights, summed, windows } from '../facebook/insights.ts';

const FEED_METRICS = ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions'];
const METRICS_BY_PRODUCT: Record<string, string[]> = {
  FEED: FEED_METRICS,
  REELS: [...FEED_METRICS, 'ig_reels_avg_watch_time', 'ig_reels_video_view_total_time'],
  STORY: ['views', 'reach', 'replies', 'shares', 'total_interactions'],
};
/** Figures kept under their own names besides the normalized ones. */
const EXTRA = ['total_interactions', 'ig_reels_avg_watch_time', 'ig_reels_video_view_total_time', 'replies'];
const ACCOUNT_METRICS = ['total_interactions', 'views', 'reach', 'accounts_engaged'];
/** Sums over several windows; reach and accounts_engaged count people once per window, so they are given for one window only. */
const ADDITIVE = new Set(['total_interactions', 'views']);
const MAX_WINDOW_DAYS = 30;

interface MediaNode {
  media_type?: string;
  media_product_type?: string;
  like_count?: number;
  comments_count?: number;
}

export function mediaAnalytics(apiUrl: string) {
  return {
    async post(session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
      const api = GraphApi.of('instagram', apiUrl, session);
      const id = post.root.platformId;
      const media = await api.get<MediaNode>(node(id), { fields: 'media_type,media_product_type,like_count,comments_count' });
      const { insights, unavailable } = await permittedInsights(() => readInsights(api, id, METRICS_BY_PRODUCT[media.media_product_type ?? 'FEED'] ?? FEED_METRICS));
      const platform: Record<string, unknown> = unavailable ? { insights_unavailable: unavailable } : {};
      for (const name of EXTRA) {
        const value = lastValue(insights, name);
        if (value !== null) platform[name] = value;
      }
      if (media.media_product_type) platform.media_product_type = media.media_product_type;
      return {
        likes: lastValue(insights, 'likes') ?? media.like_count ?? null,
        comments: lastValue(insights, 'comments') ?? media.comments_count ?? null,
        shares: lastValue(insights, 'shares'),
        views: lastValue(insights, 'views'),
        reach: lastValue(insights, 'reach'),
        saves: lastValue(insights, 'saved'),
        impressions: null,
        platform_specific: platform,
      };
    },

    async account(session: AccountSession, period: { since: Date; until: Date }): Promise<AccountMetrics> {
      const api = GraphApi.of('instagram', apiUrl, session);
      const userId = session.account.networkUniqueId;
      const user = await api.get<{ followers_count?: number; follows_count?: number; media_count?: number }>(node(userId), { fields: 'followers_count,follows_count,media_count' });
      const spans = windows(period.since, period.until, MAX_WINDOW_DAYS);
      const totals = new Map<string, number>();
      let unavailable: string | undefined;
      for (const span of spans) {
        const read = await permittedInsights(() => readInsights(api, userId, ACCOUNT_METRICS, { period: 'day', metric_type: 'total_value', since: unixSeconds(span.since), until: unixSeconds(span.until) }));
        if (read.unavailable) {
          unavailable = read.unavailable;
          totals.clear();
          break;
        }
        const { insights } = read;
        for (const name of ACCOUNT_METRICS) {
          const value = summed(insights, name);
          if (value !== null && (ADDITIVE.has(name) || spans.length === 1)) totals.set(name, (totals.get(name) ?? 0) + value);
        }
      }
      const engagement = totals.get('total_interactions') ?? null;
      return {
        followers: user.followers_count ?? null,
        following: user.follows_count ?? null,
        posts: user.media_count ?? null,
        engagement,
        ranged: engagement !== null,
        platform_specific: {
          ...Object.fromEntries([...totals].filter(([name]) => name !== 'total_interactions')),
          ...(unavailable ? { insights_unavailable: unavailable } : {}),
        },
      };
    },
  };
}
