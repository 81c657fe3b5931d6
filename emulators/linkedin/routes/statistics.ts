// The figures LinkedIn reports: an organization's share statistics (per post, lifetime, or per day
// over a time range), its follower count (networkSizes), and a member's post analytics
// (memberCreatorPostAnalytics, one metric per call). Counters come from setPostStatistics; comments
// are counted from the comments made.
import { accessDenied, illegalArgument, notFound } from '../errors.ts';
import type { LinkedInPost } from '../publishing.ts';
import { mayActAs, STATISTICS_ROLES, type LinkedInWorld } from '../world.ts';
import { memberUrn, restGuard, urnParam, type Route } from './context.ts';

const DAY_MS = 24 * 3600_000;
/** memberCreatorPostAnalytics queryType → the post's counter. */
const MEMBER_METRICS = ['IMPRESSION', 'MEMBERS_REACHED', 'RESHARE', 'REACTION', 'COMMENT', 'POST_SAVE', 'POST_SEND'] as const;

export function statisticsRoutes(world: LinkedInWorld): Route[] {
  const rest = restGuard(world, { restli2: true });
  const { publishing } = world;
  const commentCount = (post: LinkedInPost) => publishing.comments.filter((c) => c.postUrn === post.urn).length;

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

  const shareStatistics = rest('organizationalEntityShareStatistics.FINDER-organizationalEntity', ['rw_organization_admin'], (caller, { query }) => {
    if (query.q !== 'organizationalEntity') return illegalArgument(`Invalid query parameter q: ${query.q ?? '(missing)'}`);
    const org = /^urn:li:organization:(\d+)$/.exec(urnParam(query.organizationalEntity));
    if (!org) return illegalArgument(`Invalid organizationalEntity: ${query.organizationalEntity ?? '(missing)'}`);
    const entity = `urn:li:organization:${org[1]}`;
    if (!mayActAs(world, caller.sub, entity, STATISTICS_ROLES)) return accessDenied('organizationalEntityShareStatistics.FINDER-organizationalEntity');
    const mine = publishing.posts.filter((p) => p.author === entity && !p.deleted);
    const named = [...listOf(query.shares), ...listOf(query.ugcPosts)];
    if (named.length) {
      const elements = named.flatMap((urn) => {
        const post = mine.find((p) => p.urn === urn);
        return post ? [{ organizationalEntity: entity, [urn.startsWith('urn:li:ugcPost:') ? 'ugcPost' : 'share']: urn, totalShareStatistics: totals([post]) }] : [];
      });
      return { status: 200, body: { paging: { start: 0, count: elements.length, links: [] }, elements } };
    }
    if (query.timeIntervals) {
      const interval = /timeRange:\(start:(\d+),end:(\d+)\),timeGranularityType:(DAY|MONTH)/.exec(query.timeIntervals);
      if (!interval) return illegalArgument(`Invalid timeIntervals: ${query.timeIntervals}`);
      const [start, end] = [Number(interval[1]), Number(interval[2])];
      if (end <= start) return illegalArgument('timeRange end must be after start');
      // Each day's figures are those of the posts created that day (the emulator's model; see README.md).
      const elements = [];
      for (let day = start; day < end; day += DAY_MS) {
        const dayEnd = Math.min(day + DAY_MS, end);
        elements.push({ organizationalEntity: entity, timeRange: { start: day, end: dayEnd }, totalShareStatistics: totals(mine.filter((p) => p.createdAt >= day && p.createdAt < dayEnd)) });
      }
      return { status: 200, body: { paging: { start: 0, count: elements.length, links: [] }, elements } };
    }
    return { status: 200, body: { paging: { start: 0, count: 1, links: [] }, elements: [{ organizationalEntity: entity, totalShareStatistics: totals(mine) }] } };
  });

  const networkSize = rest('networkSizes.GET', ['rw_organization_admin', 'r_organization_admin', 'r_organization_social'], (_caller, { params, query }) => {
    const urn = urnParam(params.urn);
    const org = /^urn:li:organization:(\d+)$/.exec(urn);
    if (!org || query.edgeType !== 'COMPANY_FOLLOWED_BY_MEMBER') return illegalArgument(`Invalid networkSizes request for ${urn} with edgeType ${query.edgeType ?? '(missing)'}`);
    const found = world.organizations.get(Number(org[1]));
    if (!found) return notFound(`Organization ${org[1]} does not exist`);
    return { status: 200, body: { firstDegreeSize: found.followers } };
  });

  const memberPostAnalytics = rest('memberCreatorPostAnalytics.FINDER-entity', ['r_member_postAnalytics'], (caller, { query }) => {
    if (query.q !== 'entity') return illegalArgument(`Invalid query parameter q: ${query.q ?? '(missing)'} (the emulator serves q=entity)`);
    const entity = /^\((share|ugc):(urn:li:(?:share|ugcPost):\d+)\)$/.exec(urnParam(query.entity));
    if (!entity) return illegalArgument(`Invalid entity: ${query.entity ?? '(missing)'}`);
    const metric = query.queryType as (typeof MEMBER_METRICS)[number];
    if (!MEMBER_METRICS.includes(metric)) return illegalArgument(`Invalid queryType: ${query.queryType ?? '(missing)'}`);
    if ((query.aggregation ?? 'TOTAL') !== 'TOTAL') return illegalArgument('The emulator serves aggregation=TOTAL only');
    const post = publishing.findPost(entity[2]!);
    if (!post) return notFound(`Post ${entity[2]} does not exist`);
    if (post.author !== memberUrn(caller.sub)) return accessDenied('memberCreatorPostAnalytics.FINDER-entity');
    const count = {
      IMPRESSION: post.stats.impressions, MEMBERS_REACHED: post.stats.uniqueImpressions, RESHARE: post.stats.shares, REACTION: post.stats.likes,
      COMMENT: commentCount(post), POST_SAVE: post.stats.saves, POST_SEND: post.stats.sends,
    }[metric];
    return { status: 200, body: { paging: { start: 0, count: 1, links: [] }, elements: [{ count, metricType: metric, targetEntity: { [entity[1]!]: post.urn } }] } };
  });

  return [
    { method: 'GET', url: '/rest/organizationalEntityShareStatistics', handler: shareStatistics },
    { method: 'GET', url: '/rest/networkSizes/:urn', handler: networkSize },
    { method: 'GET', url: '/rest/memberCreatorPostAnalytics', handler: memberPostAnalytics },
  ];
}

/** The URNs of a Rest.li 2.0 List(…) query value (already URL-decoded). */
function listOf(value: string | undefined): string[] {
  const inner = /^List\((.*)\)$/.exec(value ?? '')?.[1];
  return inner ? inner.split(',').map((urn) => urn.trim()).filter(Boolean) : [];
}
