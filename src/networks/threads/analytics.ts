// Insights (insights doc, threads_manage_insights). A post: GET /{media-id}/insights with views, likes,
// replies, reposts, quotes, shares (lifetime `values:[{value}]`; an empty list for a repost). The
// account: GET /{user-id}/threads_insights over the period, `views` being daily profile views and the
// others totals over the range, except followers_count, Threads' current total.
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { clientFor } from './session.ts';

const POST_METRICS = 'views,likes,replies,reposts,quotes,shares';
const ACCOUNT_METRICS = 'views,likes,replies,reposts,quotes,clicks,followers_count';
/** Insights doc: user insights' since/until do not work before April 13, 2024. */
const EARLIEST_SECS = 1712991600;

interface Insight {
  name: string;
  values?: { value?: unknown; end_time?: string }[];
  total_value?: { value?: unknown };
}

/** Each metric's figure: its total_value, else the sum of its values; absent metrics are absent. */
function figuresOf(body: unknown): Map<string, number> {
  const figures = new Map<string, number>();
  for (const insight of ((body as { data?: Insight[] } | undefined)?.data ?? [])) {
    const total = Number(insight.total_value?.value);
    const summed = (insight.values ?? []).map((v) => Number(v.value)).filter(Number.isFinite);
    if (Number.isFinite(total)) figures.set(insight.name, total);
    else if (summed.length) figures.set(insight.name, summed.reduce((a, b) => a + b, 0));
  }
  return figures;
}

export async function postAnalytics(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const client = clientFor(apiUrl, session);
  const figures = figuresOf(await client.read(`/${post.root.platformId}/insights`, { metric: POST_METRICS }));
  const of = (name: string) => figures.get(name) ?? null;
  return {
    likes: of('likes'),
    // `replies` on a root counts every reply below it (insights doc).
    comments: of('replies'),
    shares: of('shares'),
    views: of('views'),
    reach: null,
    saves: null,
    impressions: null,
    platform_specific: Object.fromEntries(figures),
  };
}

export async function accountAnalytics(apiUrl: string, session: AccountSession, period: { since: Date; until: Date }): Promise<AccountMetrics> {
  const until = Math.floor(period.until.getTime() / 1000);
  if (until < EARLIEST_SECS) throw new PublishError('permanent', 'threads: Threads gives no account figures before 2024-04-13', undefined, 'invalid');
  const since = Math.max(EARLIEST_SECS, Math.floor(period.since.getTime() / 1000));
  const client = clientFor(apiUrl, session);
  const figures = figuresOf(await client.read(`/${client.userId}/threads_insights`, { metric: ACCOUNT_METRICS, since: String(since), until: String(until) }));
  const interactions = ['likes', 'replies', 'reposts', 'quotes'].map((name) => figures.get(name)).filter((n): n is number => n !== undefined);
  const { followers_count: followers, views, ...rest } = Object.fromEntries(figures);
  return {
    followers: followers ?? null,
    following: null,
    posts: null,
    // Engagement over the period: the interactions Threads counts (likes, replies, reposts, quotes).
    engagement: interactions.length ? interactions.reduce((a, b) => a + b, 0) : null,
    ranged: true,
    platform_specific: { ...rest, ...(views === undefined ? {} : { profile_views: views }) },
  };
}
