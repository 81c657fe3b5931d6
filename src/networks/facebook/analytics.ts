// A Page post's and a Page's figures. Post: its counters on the node (reactions and comments
// summaries, shares) and /{post-id}/insights of the "views" family that replaced impressions in 2025
// (post_media_view, post_total_media_view_unique), with clicks and reactions by type; a video or
// Reel: its Video node's counters and /{video-id}/video_insights. Page:
// followers_count and fan_count on the node, and /{page-id}/insights per day over the period asked
// (page_post_engagements, page_media_view), in windows of at most 90 days (Graph's cap on since/until).
// A figure Graph does not give is null, never 0: a Page under 100 likes has no insights (Graph refuses
// with error 2874008, or answers empty data), and `insights_unavailable` says so.
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { GraphApi, node, unixSeconds } from './graph-api.ts';
import { lastValue, objectValue, permittedInsights, readInsights, summed, windows, type InsightEntry } from './insights.ts';

const POST_METRICS = ['post_media_view', 'post_total_media_view_unique', 'post_clicks', 'post_reactions_by_type_total'] as const;
const PAGE_METRICS = ['page_post_engagements', 'page_media_view', 'page_follows'] as const;
const MAX_WINDOW_DAYS = 90;
/** Page insights exist only for Pages with this many likes (fan_count) or more. */
const PAGE_INSIGHTS_MIN_LIKES = 100;
const COUNTERS = 'reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)';
/** video_insights' view counts, the first one given: Reels' plays, then a video's 3-second views. */
const VIDEO_VIEWS = ['blue_reels_play_count', 'fb_reels_total_plays', 'total_video_views'];

interface PostNode {
  reactions?: { summary?: { total_count?: number } };
  comments?: { summary?: { total_count?: number } };
  shares?: { count?: number };
}

export function pageAnalytics(apiUrl: string) {
  return {
    async post(session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
      const api = GraphApi.of('facebook', apiUrl, session);
      const id = post.root.platformId;
      // A feed post is {page-id}_{post-id}; a video or Reel is known by its video id: a Video node,
      // without `shares`, whose figures are /{video-id}/video_insights.
      return id.includes('_') ? feedPostMetrics(api, id) : videoMetrics(api, id);
    },

    async account(session: AccountSession, period: { since: Date; until: Date }): Promise<AccountMetrics> {
      const api = GraphApi.of('facebook', apiUrl, session);
      const pageId = session.account.networkUniqueId;
      const page = await api.get<{ followers_count?: number; fan_count?: number }>(node(pageId), { fields: 'followers_count,fan_count' });
      const { engagements, views, follows, unavailable } = await pageFigures(api, pageId, period, page.fan_count);
      return {
        followers: page.followers_count ?? null,
        following: null,
        posts: null,
        engagement: engagements,
        ranged: !unavailable && engagements !== null,
        platform_specific: {
          ...(unavailable ? { insights_unavailable: unavailable } : {}),
          ...(page.fan_count !== undefined ? { fan_count: page.fan_count } : {}),
          ...(views !== null ? { page_media_view: views } : {}),
          ...(follows !== null ? { page_follows: follows } : {}),
        },
      };
    },
  };
}

interface PageFigures {
  engagements: number | null;
  views: number | null;
  follows: number | null;
  /** Why the period has no Page insights (Meta's words, or that Graph answered none). */
  unavailable?: string;
}

/**
 * The Page's daily insights over the period, window by window (at most 90 days each), summed. A
 * refusal in a later window leaves the earlier windows' sums partial: then no figure is given.
 */
async function pageFigures(api: GraphApi, pageId: string, period: { since: Date; until: Date }, fanCount: number | undefined): Promise<PageFigures> {
  const out: PageFigures = { engagements: null, views: null, follows: null };
  let answered = false;
  const spans = windows(period.since, period.until, MAX_WINDOW_DAYS);
  for (const window of spans) {
    const read = await permittedInsights(() => readInsights(api, pageId, PAGE_METRICS, { period: 'day', since: unixSeconds(window.since), until: unixSeconds(window.until) }));
    if (read.unavailable) return { engagements: null, views: null, follows: null, unavailable: read.unavailable };
    const { insights } = read;
    if (insights.size) answered = true;
    out.engagements = add(out.engagements, summed(insights, 'page_post_engagements'));
    out.views = add(out.views, summed(insights, 'page_media_view'));
    out.follows = lastValue(insights, 'page_follows') ?? out.follows;
  }
  // `{"data": []}` for every window is the other answer reported for a Page under 100 likes: no figures, and why.
  return !answered && spans.length ? { engagements: null, views: null, follows: null, unavailable: noPageInsights(fanCount) } : out;
}

async function feedPostMetrics(api: GraphApi, id: string): Promise<PostMetrics> {
  const counts = await api.get<PostNode>(node(id), { fields: `${COUNTERS},shares` });
  const { insights, unavailable } = await permittedInsights(() => readInsights(api, id, POST_METRICS, { period: 'lifetime' }));
  const platform: Record<string, unknown> = unavailable ? { insights_unavailable: unavailable } : {};
  for (const name of ['post_clicks', 'post_reactions_by_type_total'] as const) {
    const value = objectValue(insights, name);
    if (value !== undefined) platform[name] = value;
  }
  return {
    ...countsOf(counts),
    // Graph leaves `shares` out of a post nobody shared.
    shares: counts.shares?.count ?? 0,
    views: lastValue(insights, 'post_media_view'),
    reach: lastValue(insights, 'post_total_media_view_unique'),
    platform_specific: platform,
  };
}

/**
 * A video's or Reel's figures: the Video node's reactions and comments, and every lifetime metric
 * video_insights gives (Meta chooses them per kind), under their own names; views are its plays
 * (Reels) or 3-second views (videos).
 */
async function videoMetrics(api: GraphApi, id: string): Promise<PostMetrics> {
  const counts = await api.get<PostNode>(node(id), { fields: COUNTERS });
  const { insights, unavailable } = await permittedInsights(async () => new Map(((await api.get<{ data?: InsightEntry[] }>(`${node(id)}/video_insights`, { period: 'lifetime' })).data ?? []).map((e) => [e.name, e])));
  const platform: Record<string, unknown> = unavailable ? { insights_unavailable: unavailable } : {};
  for (const name of insights.keys()) {
    const value = objectValue(insights, name);
    if (value !== undefined) platform[name] = value;
  }
  const views = VIDEO_VIEWS.map((name) => lastValue(insights, name)).find((v) => v !== null) ?? null;
  return { ...countsOf(counts), shares: null, views, reach: null, platform_specific: platform };
}

function countsOf(counts: PostNode): Pick<PostMetrics, 'likes' | 'comments' | 'saves' | 'impressions'> {
  return {
    likes: counts.reactions?.summary?.total_count ?? null,
    comments: counts.comments?.summary?.total_count ?? null,
    saves: null,
    impressions: null,
  };
}

/**
 * Why Graph gave no Page insights at all: "Page Insights data is only available on Pages with 100 or more
 * likes" (https://developers.facebook.com/docs/graph-api/reference/insights), said when the Page has fewer.
 */
function noPageInsights(fanCount: number | undefined): string {
  const few = fanCount !== undefined && fanCount < PAGE_INSIGHTS_MIN_LIKES;
  return `facebook: Graph answered no Page insights for the period${few ? `; Meta gives them only to Pages with ${PAGE_INSIGHTS_MIN_LIKES} or more likes, and this Page has ${fanCount}` : ''}`;
}

const add = (total: number | null, value: number | null) => (value === null ? total : (total ?? 0) + value);
