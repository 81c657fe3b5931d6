// Insights (insights doc, threads_manage_insights): GET /{media-id}/insights?metric=… answers each
// metric as `{name, period:"lifetime", values:[{value}], title, description, id}` (an empty list for a
// REPOST_FACADE); GET /{user-id}/threads_insights?metric=…&since&until answers `views` (profile views)
// as a daily series `values:[{value, end_time}]` and the others as `total_value:{value}` over the
// range (followers_count: the current total, whatever the range). since/until are refused before
// 2024-04-13 (1712991600); without them the range is yesterday through today.
import type { Reply } from '../../shared/http.ts';
import { invalidThreadsParameter, isReply, missingPermission, objectNotFound } from '../errors.ts';
import { POST_METRICS, USER_METRICS, type PostMetric, type ThreadsMedia, type ThreadsWorld, type UserInsightsDay } from '../state.ts';
import { demographicsRangeProblem, metricsOf, paramsOf, timeParam, versionProblem } from '../validate.ts';
import { callerOf, type Caller } from './caller.ts';
import { metaTime } from './nodes.ts';
import type { ThreadsRequest, ThreadsRoute } from './route.ts';

/** Insights doc: user insights since/until do not work before April 13, 2024. */
const EARLIEST_SECS = 1712991600;
const DAY_MS = 86_400_000;

const TITLES: Record<string, string> = { views: 'Views', likes: 'Likes', replies: 'Replies', reposts: 'Reposts', quotes: 'Quotes', shares: 'Shares', clicks: 'Clicks', followers_count: 'Followers count' };

export function insightRoutes(world: ThreadsWorld): ThreadsRoute[] {
  const insightsCaller = (req: ThreadsRequest, params: Record<string, string | undefined>, pathUser?: string): Caller | Reply => {
    const badVersion = versionProblem(req.params.version);
  if (badVersion) return badVersion;
    const caller = callerOf(world, req, params, pathUser);
    if (isReply(caller)) return caller;
    return caller.scopes.includes('threads_manage_insights') ? caller : missingPermission('threads_manage_insights');
  };
  return [
    {
      method: 'GET',
      url: '/:version/:id/insights',
      handler: (req) => {
        const params = paramsOf(req);
        const caller = insightsCaller(req, params);
        if (isReply(caller)) return caller;
        const media = world.publishing.media.find((m) => m.id === req.params.id && m.userId === caller.userId);
        return media ? mediaInsights(world, media, params.metric) : objectNotFound(req.params.id!);
      },
    },
    {
      method: 'GET',
      url: '/:version/:id/threads_insights',
      handler: (req) => {
        const params = paramsOf(req);
        const caller = insightsCaller(req, params, req.params.id);
        return isReply(caller) ? caller : userInsights(world, caller.userId, params);
      },
    },
  ];
}

/** `replies` on a root counts every reply below it; on a reply, its direct replies (insights doc). */
function repliesCount(world: ThreadsWorld, media: ThreadsMedia): number {
  if (media.rootId !== media.id) return world.publishing.media.filter((m) => m.replyToId === media.id).length;
  return world.publishing.media.filter((m) => m.rootId === media.id && m.id !== media.id).length;
}

function mediaInsights(world: ThreadsWorld, media: ThreadsMedia, metric: string | undefined): Reply {
  const metrics = metricsOf(metric, POST_METRICS);
  if (!Array.isArray(metrics)) return metrics;
  if (media.mediaType === 'REPOST_FACADE') return { status: 200, body: { data: [] } };
  const data = (metrics as PostMetric[]).map((name) => ({
    name,
    period: 'lifetime',
    values: [{ value: name === 'replies' ? repliesCount(world, media) : media.insights?.[name] ?? 0 }],
    title: TITLES[name],
    description: `The number of ${name} on your post.`,
    id: `${media.id}/insights/${name}/lifetime`,
  }));
  return { status: 200, body: { data } };
}

function userInsights(world: ThreadsWorld, userId: string, params: Record<string, string | undefined>): Reply {
  const metrics = metricsOf(params.metric, USER_METRICS);
  if (!Array.isArray(metrics)) return metrics;
  const badRange = demographicsRangeProblem(metrics, params);
  if (badRange) return badRange;
  const now = world.clock.now();
  const since = timeParam(params.since) ?? Math.floor(now / DAY_MS - 1) * DAY_MS;
  const until = timeParam(params.until) ?? now;
  if (since < EARLIEST_SECS * 1000 || until < EARLIEST_SECS * 1000) return invalidThreadsParameter(`(#100) since and until must not be before ${EARLIEST_SECS} (April 13, 2024)`);
  if (since > until) return invalidThreadsParameter('(#100) since must be before until');
  const insights = world.engagement.userInsights.get(userId) ?? { followersCount: 0, days: [] };
  const days = insights.days.filter((d) => {
    const start = Date.parse(`${d.day}T00:00:00Z`);
    return start + DAY_MS > since && start <= until;
  });
  const data = metrics.map((name) => {
    const base = { name, title: TITLES[name] ?? name, id: `${userId}/insights/${name}/day` };
    if (name === 'followers_count') return { ...base, period: 'day', total_value: { value: insights.followersCount } };
    if (name === 'follower_demographics') return { ...base, period: 'lifetime', total_value: { breakdowns: [] } };
    if (name === 'views') {
      return { ...base, period: 'day', values: days.map((d) => ({ value: d.views ?? 0, end_time: metaTime(Date.parse(`${d.day}T00:00:00Z`) + DAY_MS) })) };
    }
    const total = days.reduce((sum, d) => sum + (d[name as keyof Omit<UserInsightsDay, 'day'>] ?? 0), 0);
    return { ...base, period: 'day', total_value: { value: total } };
  });
  return { status: 200, body: { data } };
}
