// LinkedIn's figures. An organization's post: its social-action summary (reactions, comments) and
// its share statistics (impressions, unique impressions, clicks, reshares). A member's post: member
// post analytics, one metric a call, which needs r_member_postAnalytics — without it (LinkedIn
// answers 403) the figures are null. An organization account: followers (networkSizes) and the
// share statistics of the period, day by day (ranged). A member account: LinkedIn gives ordinary
// apps no follower count or totals, so every figure is null.
import type { AccountMetrics, AccountSession, PostMetrics, PublishedPost } from '../capabilities.ts';
import { PublishError } from '../errors.ts';
import type { LinkedInClient } from './client.ts';
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

/** memberCreatorPostAnalytics metrics read for a member's post (POST_SAVE only on newer versions: null where refused). */
const MEMBER_METRICS = ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE', 'POST_SAVE'] as const;
type MemberMetric = (typeof MEMBER_METRICS)[number];

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export async function linkedInPostMetrics(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const client = clientOf(apiUrl, session);
  const urn = postUrn(post.root.platformId);
  const author = actorOf(session);
  return isOrganization(author) ? organizationPost(client, author, urn) : memberPost(client, urn);
}

async function organizationPost(client: LinkedInClient, org: string, urn: string): Promise<PostMetrics> {
  const { body } = await client.request({ url: `/rest/socialActions/${encodeUrn(urn)}` });
  const summary = body as { likesSummary?: { totalLikes?: number }; commentsSummary?: { aggregatedTotalComments?: number } };
  const list = urn.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
  const stats = await client.request({ url: `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeUrn(org)}&${list}=List(${encodeUrn(urn)})` });
  const totals = ((stats.body as { elements?: { totalShareStatistics?: ShareStatistics }[] }).elements?.[0]?.totalShareStatistics) ?? {};
  return {
    likes: num(summary.likesSummary?.totalLikes) ?? num(totals.likeCount),
    comments: num(summary.commentsSummary?.aggregatedTotalComments) ?? num(totals.commentCount),
    shares: num(totals.shareCount),
    views: null,
    reach: num(totals.uniqueImpressionsCount),
    saves: null,
    impressions: num(totals.impressionCount),
    platform_specific: { ...definedOf(totals) },
  };
}

async function memberPost(client: LinkedInClient, urn: string): Promise<PostMetrics> {
  const counts: Partial<Record<MemberMetric, number | null>> = {};
  for (const metric of MEMBER_METRICS) {
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

/** One metric of a member's post; 'forbidden' when the token lacks r_member_postAnalytics; null when LinkedIn has no such metric. */
async function memberMetric(client: LinkedInClient, urn: string, metric: MemberMetric): Promise<number | null | 'forbidden'> {
  const entity = `(${urn.startsWith('urn:li:ugcPost:') ? 'ugc' : 'share'}:${encodeUrn(urn)})`;
  try {
    const { body } = await client.request({ url: `/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${metric}&aggregation=TOTAL`, headers: { 'x-restli-method': 'FINDER' } });
    return num((body as { elements?: { count?: number }[] }).elements?.[0]?.count);
  } catch (error) {
    if (error instanceof PublishError && error.code === 'forbidden') return 'forbidden';
    // A metric this API version does not know (POST_SAVE on older ones) is no figure, not a failure.
    if (error instanceof PublishError && error.code === 'invalid' && metric === 'POST_SAVE') return null;
    throw error;
  }
}

const withoutPermission = (): PostMetrics => ({
  likes: null, comments: null, shares: null, views: null, reach: null, saves: null, impressions: null,
  platform_specific: { unavailable: 'LinkedIn gives a member\'s post analytics only with the r_member_postAnalytics permission' },
});

export async function linkedInAccountMetrics(apiUrl: string, session: AccountSession, period: { since: Date; until: Date }): Promise<AccountMetrics> {
  const author = actorOf(session);
  if (!isOrganization(author)) {
    return { followers: null, following: null, posts: null, engagement: null, ranged: false, platform_specific: {} };
  }
  const client = clientOf(apiUrl, session);
  const size = await client.request({ url: `/rest/networkSizes/${encodeUrn(author)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER` });
  const interval = `(timeRange:(start:${period.since.getTime()},end:${period.until.getTime()}),timeGranularityType:DAY)`;
  const stats = await client.request({ url: `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeUrn(author)}&timeIntervals=${interval}` });
  const days = (stats.body as { elements?: { totalShareStatistics?: ShareStatistics }[] }).elements ?? [];
  const sum = (name: keyof ShareStatistics) => days.reduce((n, d) => n + (num(d.totalShareStatistics?.[name]) ?? 0), 0);
  const [likeCount, commentCount, shareCount, clickCount] = [sum('likeCount'), sum('commentCount'), sum('shareCount'), sum('clickCount')];
  return {
    followers: num((size.body as { firstDegreeSize?: number }).firstDegreeSize),
    following: null,
    posts: null,
    // Interactions over the period: reactions, comments, reshares and clicks on the page's posts.
    engagement: likeCount + commentCount + shareCount + clickCount,
    ranged: true,
    platform_specific: { impressionCount: sum('impressionCount'), clickCount, likeCount, commentCount, shareCount },
  };
}

function definedOf(stats: ShareStatistics): Record<string, number> {
  return Object.fromEntries(Object.entries(stats).filter(([, v]) => typeof v === 'number')) as Record<string, number>;
}
