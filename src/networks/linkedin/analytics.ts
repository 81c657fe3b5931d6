// LinkedIn's figures. An organization's post: its social-action summary (reactions, comments) and
// its share statistics (impressions, unique impressions, clicks, reshares). A member's post: member
// post analytics, one metric a call, which needs r_member_postAnalytics — without it (LinkedIn
// answers 403) the figures are null. An organization account: followers (networkSizes) and the
// share statistics of the period, day by day (ranged), asked only inside the rolling 12-month window
// the statistics serve. Share statistics are for the page's ADMINISTRATORs, its posts' social actions
// for ADMINISTRATOR and DIRECT_SPONSORED_CONTENT_POSTER: another role gets null figures, not a
// failure. A member account: LinkedIn gives ordinary apps no follower count or totals, so every
// figure is null.
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { LinkedInClient } from './client.ts';
import { LINKEDIN_VERSION } from './oauth.ts';
import { actorOf, clientOf } from './session.ts';
import { encodeUrn, isOrganization, postUrn } from './urn.ts';

interface ShareStatistics {
  impressionCount?: number;
  uniqueImpressionsCount?: number;
  clickCount?: number;
  likeCount?: number;
  commentCount?: number;
  shareCount?: number;
  engagement?: number;
}

/**
 * memberCreatorPostAnalytics metrics read for a member's post. POST_SAVE is a queryType from
 * LinkedIn-Version 202603 on (the post-statistics page lists it from its 2026-03 view; the 2025-11
 * view has only the others): asked only where the version Crier sends has it.
 */
const MEMBER_METRICS = ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE'] as const;
const SAVES_SINCE = '202603';
type MemberMetric = (typeof MEMBER_METRICS)[number] | 'POST_SAVE';

/** The metrics a LinkedIn-Version (YYYYMM) serves, in the order Crier asks them. */
export function memberMetricsFor(version: string): readonly MemberMetric[] {
  return version.slice(0, 6) >= SAVES_SINCE ? [...MEMBER_METRICS, 'POST_SAVE'] : MEMBER_METRICS;
}

const SOCIAL_ACTIONS_UNAVAILABLE = 'LinkedIn gives a page post\'s reactions and comments only to its ADMINISTRATOR and DIRECT_SPONSORED_CONTENT_POSTER roles';
const SHARE_STATISTICS_UNAVAILABLE = 'LinkedIn gives share statistics only to the page\'s administrators (ADMINISTRATOR role, rw_organization_admin)';

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export async function linkedInPostMetrics(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const client = clientOf(apiUrl, session);
  const urn = postUrn(post.root.platformId);
  const author = actorOf(session);
  return isOrganization(author) ? organizationPost(client, author, urn) : memberPost(client, urn);
}

async function organizationPost(client: LinkedInClient, org: string, urn: string): Promise<PostMetrics> {
  const social = await unlessForbidden(client.request({ url: `/rest/socialActions/${encodeUrn(urn)}` }));
  const summary = (social?.body ?? {}) as { likesSummary?: { totalLikes?: number }; commentsSummary?: { aggregatedTotalComments?: number } };
  const list = urn.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
  const stats = await unlessForbidden(client.request({ url: `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeUrn(org)}&${list}=List(${encodeUrn(urn)})` }));
  const totals = ((stats?.body as { elements?: { totalShareStatistics?: ShareStatistics }[] } | undefined)?.elements?.[0]?.totalShareStatistics) ?? {};
  const unavailable = [...(social ? [] : [SOCIAL_ACTIONS_UNAVAILABLE]), ...(stats ? [] : [SHARE_STATISTICS_UNAVAILABLE])];
  return {
    likes: num(summary.likesSummary?.totalLikes) ?? num(totals.likeCount),
    comments: num(summary.commentsSummary?.aggregatedTotalComments) ?? num(totals.commentCount),
    shares: num(totals.shareCount),
    views: null,
    reach: num(totals.uniqueImpressionsCount),
    saves: null,
    impressions: num(totals.impressionCount),
    platform_specific: { ...definedOf(totals), ...(unavailable.length ? { unavailable: unavailable.join('; ') } : {}) },
  };
}

/** The answer, or undefined where LinkedIn refuses the token's member (403): figures they may not read. */
async function unlessForbidden<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof PublishError && error.code === 'forbidden') return undefined;
    throw error;
  }
}

async function memberPost(client: LinkedInClient, urn: string): Promise<PostMetrics> {
  const counts: Partial<Record<MemberMetric, number | null>> = {};
  for (const metric of memberMetricsFor(LINKEDIN_VERSION)) {
    const outcome = await memberMetric(client, urn, metric);
    if (outcome === 'forbidden') return withoutPermission();
    counts[metric] = outcome;
  }
  return {
    likes: counts.REACTION ?? null,
    comments: counts.COMMENT ?? null,
    shares: counts.RESHARE ?? null,
    views: null,
    reach: counts.MEMBERS_REACHED ?? null,
    saves: counts.POST_SAVE ?? null,
    impressions: counts.IMPRESSION ?? null,
    platform_specific: Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== null)),
  };
}

/** One metric of a member's post; 'forbidden' when the token lacks r_member_postAnalytics. */
async function memberMetric(client: LinkedInClient, urn: string, metric: MemberMetric): Promise<number | null | 'forbidden'> {
  const entity = `(${urn.startsWith('urn:li:ugcPost:') ? 'ugc' : 'share'}:${encodeUrn(urn)})`;
  try {
    const { body } = await client.request({ url: `/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${metric}&aggregation=TOTAL`, headers: { 'x-restli-method': 'FINDER' } });
    return num((body as { elements?: { count?: number }[] }).elements?.[0]?.count);
  } catch (error) {
    if (error instanceof PublishError && error.code === 'forbidden') return 'forbidden';
    throw error;
  }
}

const withoutPermission = (): PostMetrics => ({
  likes: null, comments: null, shares: null, views: null, reach: null, saves: null, impressions: null,
  platform_specific: { unavailable: 'LinkedIn gives a member\'s post analytics only with the r_member_postAnalytics permission' },
});

/** The statistics' rolling window is 12 months; a day's margin keeps Crier's clock and LinkedIn's apart. */
const WINDOW_MARGIN_MS = 24 * 3_600_000;

/** The start of the rolling 12-month window share statistics serve, as of `now`, with the margin. */
export function statisticsWindowStart(now: number): number {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - 12);
  return date.getTime() + WINDOW_MARGIN_MS;
}

export async function linkedInAccountMetrics(apiUrl: string, session: AccountSession, period: { since: Date; until: Date }, now = Date.now()): Promise<AccountMetrics> {
  const author = actorOf(session);
  if (!isOrganization(author)) {
    return { followers: null, following: null, posts: null, engagement: null, ranged: false, platform_specific: {} };
  }
  const client = clientOf(apiUrl, session);
  const size = await client.request({ url: `/rest/networkSizes/${encodeUrn(author)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER` });
  const followers = num((size.body as { firstDegreeSize?: number }).firstDegreeSize);
  // LinkedIn serves share statistics only inside the rolling 12-month window: an earlier start is cut to it.
  const since = Math.max(period.since.getTime(), statisticsWindowStart(now));
  const until = period.until.getTime();
  const cut = since > period.since.getTime() ? { statisticsSince: new Date(since).toISOString() } : {};
  if (since >= until) return { followers, following: null, posts: null, engagement: null, ranged: false, platform_specific: { ...cut } };
  const interval = `(timeRange:(start:${since},end:${until}),timeGranularityType:DAY)`;
  const stats = await unlessForbidden(client.request({ url: `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeUrn(author)}&timeIntervals=${interval}` }));
  if (!stats) return { followers, following: null, posts: null, engagement: null, ranged: false, platform_specific: { unavailable: SHARE_STATISTICS_UNAVAILABLE } };
  const days = (stats.body as { elements?: { totalShareStatistics?: ShareStatistics }[] }).elements ?? [];
  const sum = (name: keyof ShareStatistics) => days.reduce((n, d) => n + (num(d.totalShareStatistics?.[name]) ?? 0), 0);
  const [likeCount, commentCount, shareCount, clickCount] = [sum('likeCount'), sum('commentCount'), sum('shareCount'), sum('clickCount')];
  return {
    followers,
    following: null,
    posts: null,
    // Interactions over the period: reactions, comments, reshares and clicks on the page's posts.
    engagement: likeCount + commentCount + shareCount + clickCount,
    ranged: true,
    platform_specific: { impressionCount: sum('impressionCount'), clickCount, likeCount, commentCount, shareCount, ...cut },
  };
}

function definedOf(stats: ShareStatistics): Record<string, number> {
  return Object.fromEntries(Object.entries(stats).filter(([, v]) => typeof v === 'number')) as Record<string, number>;
}
