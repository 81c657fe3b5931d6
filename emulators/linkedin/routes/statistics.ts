// The figures LinkedIn reports: an organization's share statistics (per post, lifetime, or per day
// or month over a time range inside the rolling 12-month window), its follower count (networkSizes),
// and a member's post analytics (memberCreatorPostAnalytics, one metric per call, for one post or
// all of the member's, in total or day by day). Counters come from setPostStatistics; comments are
// counted from the comments made. Query values are read in the call's Rest.li protocol
// (validate/restli.ts).
import type { Reply } from '../../shared/http.ts';
import { accessDenied, illegalArgument, notFound } from '../errors.ts';
import type { LinkedInPost } from '../publishing.ts';
import { mayActAs, STATISTICS_ROLES, type LinkedInWorld } from '../state.ts';
import { dateRangeParam, entityParam, isReply, listParam, timeIntervalsParam, type TimeIntervals } from '../validate/restli.ts';
import { memberUrn, restGuard, urnParam, type RestInput, type Route } from './context.ts';

const DAY_MS = 24 * 3600_000;

/** memberCreatorPostAnalytics queryTypes every served version knows (the 202511 view of the page). */
const MEMBER_METRICS = ['IMPRESSION', 'MEMBERS_REACHED', 'RESHARE', 'REACTION', 'COMMENT'] as const;
/** queryTypes added in LinkedIn-Version 202603 (listed from the 2026-03 view of the page on). */
const SAVE_METRICS = ['POST_SAVE', 'POST_SEND'] as const;
const SAVE_METRICS_SINCE = '202603';
type MemberMetric = (typeof MEMBER_METRICS)[number] | (typeof SAVE_METRICS)[number];

/** The queryTypes a LinkedIn-Version (YYYYMM[.RR]) serves. */
export function memberMetricsOf(version: string): readonly MemberMetric[] {
  return version.slice(0, 6) >= SAVE_METRICS_SINCE ? [...MEMBER_METRICS, ...SAVE_METRICS] : MEMBER_METRICS;
}

/** `ms` moved by whole UTC calendar months. */
function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.getTime();
}

/** The buckets of a time range: days, or calendar months counted from its start; the last one cut at its end. */
function buckets({ start, end, granularity }: TimeIntervals): { start: number; end: number }[] {
  const next = granularity === 'DAY' ? (ms: number) => ms + DAY_MS : (ms: number) => addMonths(ms, 1);
  const out = [];
  for (let from = start; from < end; from = next(from)) out.push({ start: from, end: Math.min(next(from), end) });
  return out;
}

/**
 * A time range LinkedIn does not serve: one spanning 14 months or more (the 400 captured in
 * corradio/polynomial#119), or one starting before the rolling 12-month window the page documents
 * (what LinkedIn answers then is not documented: the emulator refuses it the same way; README.md).
 */
function outsideWindow(interval: TimeIntervals, now: number): Reply | undefined {
  const described = `Invalid timeIntervals parameter [{timeGranularityType=${interval.granularity}, timeRange={start=${interval.start}, end=${interval.end}}}].`;
  if (addMonths(interval.start, 14) <= interval.end) return illegalArgument(`${described} Start time and end time must be less than 14 months apart.`);
  if (interval.start < addMonths(now, -12)) return illegalArgument(`${described} Start time must be within the past 12 months.`);
  return undefined;
}

/** A UTC day as the analytics APIs' Date record. */
const dateOf = (ms: number) => {
  const d = new Date(ms);
  return { day: d.getUTCDate(), month: d.getUTCMonth() + 1, year: d.getUTCFullYear() };
};

export function statisticsRoutes(world: LinkedInWorld): Route[] {
  const rest = restGuard(world);
  const { publishing } = world;
  const commentCount = (post: LinkedInPost) => publishing.comments.filter((c) => c.postUrn === post.urn).length;
  const createdIn = (posts: LinkedInPost[], range: { start: number; end: number }) => posts.filter((p) => p.createdAt >= range.start && p.createdAt < range.end);

  const totals = (posts: LinkedInPost[]) => {
    const sum = (pick: (p: LinkedInPost) => number) => posts.reduce((n, p) => n + pick(p), 0);
    const impressionCount = sum((p) => p.stats.impressions);
    const clickCount = sum((p) => p.stats.clicks);
    const likeCount = sum((p) => p.stats.likes);
    const commentCount_ = sum(commentCount);
    const shareCount = sum((p) => p.stats.shares);
    return {
      impressionCount, uniqueImpressionsCount: sum((p) => p.stats.uniqueImpressions), clickCount, likeCount, commentCount: commentCount_, shareCount,
      engagement: impressionCount ? (clickCount + likeCount + commentCount_ + shareCount) / impressionCount : 0,
    };
  };
  const page = (elements: unknown[]): Reply => ({ status: 200, body: { paging: { start: 0, count: elements.length, links: [] }, elements } });

  /** Named posts: one element per post of the organization found. */
  const perPost = (entity: string, mine: LinkedInPost[], named: string[]) => page(named.flatMap((urn) => {
    const post = mine.find((p) => p.urn === urn);
    return post ? [{ organizationalEntity: entity, [urn.startsWith('urn:li:ugcPost:') ? 'ugcPost' : 'share']: urn, totalShareStatistics: totals([post]) }] : [];
  }));

  /** A time range: one element per day or month; each one's figures are those of the posts created in it (the emulator's model). */
  const perInterval = (entity: string, mine: LinkedInPost[], interval: TimeIntervals) => {
    if (interval.end <= interval.start) return illegalArgument('timeRange end must be after start');
    const refused = outsideWindow(interval, world.clock.now());
    if (refused) return refused;
    return page(buckets(interval).map((range) => ({ organizationalEntity: entity, timeRange: range, totalShareStatistics: totals(createdIn(mine, range)) })));
  };

  const shareStatistics = rest('organizationalEntityShareStatistics.FINDER-organizationalEntity', ['rw_organization_admin'], (caller, { query, queryAll, protocol }) => {
    if (query.q !== 'organizationalEntity') return illegalArgument(`Invalid query parameter q: ${query.q ?? '(missing)'}`);
    const org = /^urn:li:organization:(\d+)$/.exec(urnParam(query.organizationalEntity));
    if (!org) return illegalArgument(`Invalid organizationalEntity: ${query.organizationalEntity ?? '(missing)'}`);
    const entity = `urn:li:organization:${org[1]}`;
    if (!mayActAs(world, caller.sub, entity, STATISTICS_ROLES)) return accessDenied('organizationalEntityShareStatistics.FINDER-organizationalEntity');
    const mine = publishing.posts.filter((p) => p.author === entity && !p.deleted);
    const shares = listParam(protocol, queryAll, 'shares');
    if (isReply(shares)) return shares;
    const ugcPosts = listParam(protocol, queryAll, 'ugcPosts');
    if (isReply(ugcPosts)) return ugcPosts;
    if (shares.length || ugcPosts.length) return perPost(entity, mine, [...shares, ...ugcPosts]);
    const interval = timeIntervalsParam(protocol, queryAll);
    if (isReply(interval)) return interval;
    if (interval) return perInterval(entity, mine, interval);
    return page([{ organizationalEntity: entity, totalShareStatistics: totals(mine) }]);
  });

  const networkSize = rest('networkSizes.GET', ['rw_organization_admin', 'r_organization_admin', 'r_organization_social'], (_caller, { params, query }) => {
    const urn = urnParam(params.urn);
    const org = /^urn:li:organization:(\d+)$/.exec(urn);
    if (!org || query.edgeType !== 'COMPANY_FOLLOWED_BY_MEMBER') return illegalArgument(`Invalid networkSizes request for ${urn} with edgeType ${query.edgeType ?? '(missing)'}`);
    const found = world.organizations.get(Number(org[1]));
    if (!found) return notFound(`Organization ${org[1]} does not exist`);
    return { status: 200, body: { firstDegreeSize: found.followers } };
  });

  const metricOf = (post: LinkedInPost, metric: MemberMetric): number => ({
    IMPRESSION: post.stats.impressions, MEMBERS_REACHED: post.stats.uniqueImpressions, RESHARE: post.stats.shares, REACTION: post.stats.likes,
    COMMENT: commentCount(post), POST_SAVE: post.stats.saves, POST_SEND: post.stats.sends,
  })[metric];

  /** The posts a member analytics call reads: the `entity` finder's one post (the caller's own), or the `me` finder's every post. */
  const analyzedPosts = (sub: string, { query, queryAll, protocol }: RestInput): { posts: LinkedInPost[]; target?: Record<string, string> } | Reply => {
    const mine = publishing.posts.filter((p) => p.author === memberUrn(sub) && !p.deleted);
    const namesEntity = Object.keys(queryAll).some((name) => name === 'entity' || name.startsWith('entity.'));
    if (query.q === 'me') return namesEntity ? illegalArgument('Invalid query parameters passed to request') : { posts: mine };
    if (query.q !== 'entity') return illegalArgument(`Invalid query parameter q: ${query.q ?? '(missing)'}`);
    const entity = entityParam(protocol, queryAll);
    if (isReply(entity)) return entity;
    const post = publishing.findPost(entity.urn);
    if (!post) return notFound(`Post ${entity.urn} does not exist`);
    if (post.author !== memberUrn(sub)) return accessDenied('memberCreatorPostAnalytics.FINDER-entity');
    return { posts: [post], target: { [entity.member]: post.urn } };
  };

  const memberPostAnalytics = rest('memberCreatorPostAnalytics.FINDER', ['r_member_postAnalytics'], (caller, input) => {
    const { query, queryAll, protocol, headers } = input;
    const metric = query.queryType as MemberMetric;
    if (!memberMetricsOf(headers['linkedin-version'] ?? '').includes(metric)) return illegalArgument(`Invalid queryType: ${query.queryType ?? '(missing)'}`);
    const aggregation = query.aggregation ?? 'TOTAL';
    if (aggregation !== 'TOTAL' && aggregation !== 'DAILY') return illegalArgument(`Invalid aggregation: ${aggregation}`);
    const range = dateRangeParam(protocol, queryAll);
    if (isReply(range)) return range;
    const read = analyzedPosts(caller.sub, input);
    if (isReply(read)) return read;
    const count = (posts: LinkedInPost[]) => posts.reduce((n, p) => n + metricOf(p, metric), 0);
    const element = (posts: LinkedInPost[]) => ({ count: count(posts), metricType: metric, ...(read.target ? { targetEntity: read.target } : {}) });
    if (aggregation === 'TOTAL') return page([element(range ? createdIn(read.posts, range) : read.posts)]);
    // DAILY: one data point per day of the range; each day's count is that of the posts created that day (the emulator's model).
    if (!range) return illegalArgument('aggregation=DAILY needs a dateRange');
    const days = buckets({ ...range, granularity: 'DAY' });
    return page(days.map((day) => ({ ...element(createdIn(read.posts, day)), dateRange: { start: dateOf(day.start), end: dateOf(day.end) } })));
  });

  return [
    { method: 'GET', url: '/rest/organizationalEntityShareStatistics', handler: shareStatistics },
    { method: 'GET', url: '/rest/networkSizes/:urn', handler: networkSize },
    { method: 'GET', url: '/rest/memberCreatorPostAnalytics', handler: memberPostAnalytics },
  ];
}
