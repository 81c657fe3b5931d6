// What the engagement side reads and writes on a Page with its Page token: the comments edge of a
// post or of a comment (GET filter=toplevel|stream, order, summary, cursor paging; POST message= by
// the Page, an answer to an answer attached to the top-level comment as Facebook threads one level),
// GET /{page-id}/published_posts and /posts (the Page's own posts, newest first, since/until), DELETE
// /{post-id} (a feed post, or a video or Reel by its id), and insights: /{post-id}/insights
// (lifetime), /{video-id}/video_insights (a video's or Reel's lifetime metrics) and /{page-id}/insights
// (per day, since/until at most 90 days apart; only for Pages with 100 or more likes). Retired metrics
// (the impressions family, page_fans...) answer "(#100) The value must be a valid insights metric".
import type { Reply } from '../../shared/http.ts';
import { graphError, unsupportedGet } from '../errors/graph.ts';
import { fieldList, pick, renderFields, type FieldTree } from '../validate/fields.ts';
import { refused, type PageContext } from './page-context.ts';
import * as fbe from '../errors/pages.ts';
import { PAGE_INSIGHTS_MIN_LIKES, type PageComment, type PagePost, type PagesStore } from '../state/pages.ts';
import { graphTime, listBody, pageOf } from '../paging.ts';
import type { FbPage } from '../state/accounts.ts';
import type { FbRequest, FbRoute, FbWorld } from './context.ts';

const COMMENT_DEFAULTS = fieldList('created_time', 'from', 'message', 'id');
const POST_METRICS = new Set(['post_media_view', 'post_total_media_view_unique', 'post_clicks', 'post_reactions_by_type_total']);
const PAGE_METRICS = new Set(['page_post_engagements', 'page_media_view', 'page_total_media_view_unique', 'page_follows', 'page_daily_follows_unique', 'page_views_total']);
const DAY_MS = 86_400_000;
const MAX_RANGE_S = 90 * 86_400;

export const invalidMetric = () => graphError({ message: '(#100) The value must be a valid insights metric', code: 100 });
const noMetric = () => graphError({ message: 'No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.', code: 3001, subcode: 1504028 });

/** A since/until parameter: Unix seconds or a date Graph reads (strtotime); NaN when unreadable. */
export function timeParam(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  return /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
}

/** Graph's time-paged `next`: the request's parameters with `until` the last post's second and a token naming it. */
function timeNext(req: FbRequest, path: string, last: PagePost): string {
  const next = new URL(`${req.origin}/${req.params.version}${path}`);
  for (const [name, value] of Object.entries(req.query)) if (value !== undefined) next.searchParams.set(name, value);
  if (req.token && !next.searchParams.has('access_token')) next.searchParams.set('access_token', req.token);
  next.searchParams.set('until', String(Math.floor(last.createdAt / 1000)));
  next.searchParams.set('__paging_token', Buffer.from(last.id).toString('base64url'));
  return next.toString();
}

export function pageEngagementRoutes(world: FbWorld, pages: PagesStore, ctx: PageContext): FbRoute[] {
  const { now, withUsage, asPage, onPage, renderPost, render, settle } = ctx;
  const commentById = (id: string) => pages.comments.find((c) => c.id === id);
  const answersTo = (id: string) => pages.comments.filter((c) => c.parentId === id);

  const renderComment = (c: PageComment, fields: FieldTree): Record<string, unknown> => pick(fields, {
    id: () => c.id,
    message: () => c.message,
    created_time: () => graphTime(c.createdAt),
    from: (sub) => pick(sub ?? fieldList('id', 'name'), { id: () => c.fromId, name: () => c.fromName }, 'User'),
    like_count: () => c.likeCount,
    comment_count: () => (c.parentId ? 0 : answersTo(c.id).length),
    parent: (sub) => {
      const parent = c.parentId ? commentById(c.parentId) : undefined;
      return parent ? renderComment(parent, sub ?? COMMENT_DEFAULTS) : undefined;
    },
    permalink_url: () => `https://www.facebook.com/${c.postId}?comment_id=${c.id}`,
    attachment: () => undefined,
    can_comment: () => !c.parentId,
    is_hidden: () => false,
  }, 'Comment');

  const listComments = (req: FbRequest, post: PagePost, target: PageComment | undefined): Reply => {
    const onPost = pages.comments.filter((c) => c.postId === post.id);
    let all = target ? answersTo(target.id) : req.query.filter === 'stream' ? onPost : onPost.filter((c) => !c.parentId);
    if (req.query.order === 'reverse_chronological') all = [...all].reverse();
    const page = pageOf(req, all, `/${target?.id ?? post.id}/comments`, { default: 25, max: 100 });
    const summary = req.query.summary === 'true' || req.query.summary === '1' ? { summary: { order: req.query.order ?? 'chronological', total_count: all.length, can_comment: true } } : {};
    return renderFields(req.query, COMMENT_DEFAULTS, (fields) => ({ ...listBody(page.items.map((c) => renderComment(c, fields)), page), ...summary }));
  };

  const addComment = (req: FbRequest, page: FbPage, post: PagePost, target: PageComment | undefined): Reply => {
    if (!req.query.message) return fbe.missingMessage();
    const parent = target?.parentId ? commentById(target.parentId) : target;
    const comment: PageComment = {
      id: `${post.id.split('_')[1] ?? post.id}_${pages.nextId()}`, postId: post.id, fromId: page.id, fromName: page.name,
      message: req.query.message, createdAt: now(), likeCount: 0, ...(parent ? { parentId: parent.id } : {}),
    };
    pages.comments.push(comment);
    return { status: 200, body: { id: comment.id } };
  };

  world.commentEdges.push((req, write) => {
    settle();
    const id = req.params.id!;
    const target = pages.posts.has(id) ? undefined : commentById(id);
    const post = pages.posts.get(target?.postId ?? id);
    if (!post) return undefined;
    return onPage(post.pageId, req, `/${id}/comments`, write, (page) => (write ? addComment(req, page, post, target) : listComments(req, post, target)))();
  });

  world.deleters.push((req) => {
    settle();
    const id = req.params.id!;
    const post = pages.posts.get(id);
    const video = pages.videos.get(id);
    const pageId = post?.pageId ?? video?.pageId;
    if (!pageId) return undefined;
    return onPage(pageId, req, `/${id}`, true, () => {
      pages.posts.delete(id);
      pages.videos.delete(id);
      for (let i = pages.comments.length - 1; i >= 0; i--) if (pages.comments[i]!.postId === id) pages.comments.splice(i, 1);
      return { status: 200, body: { success: true } };
    })();
  });

  const postInsights = (req: FbRequest, post: PagePost): Reply => {
    const metrics = (req.query.metric ?? '').split(',').filter(Boolean);
    if (!metrics.length) return noMetric();
    if (metrics.some((m) => !POST_METRICS.has(m))) return invalidMetric();
    const stats = pages.postStats.get(post.id);
    const value = (metric: string): unknown => {
      if (metric === 'post_reactions_by_type_total') return stats?.reactions ?? {};
      if (metric === 'post_media_view') return stats?.views ?? 0;
      if (metric === 'post_total_media_view_unique') return stats?.reach ?? 0;
      return stats?.clicks ?? 0;
    };
    return { status: 200, body: { data: metrics.map((name) => ({ name, period: 'lifetime', values: [{ value: value(name) }], title: name, description: name, id: `${post.id}/insights/${name}/lifetime` })) } };
  };

  const pageInsights = (req: FbRequest, page: FbPage): Reply => {
    const metrics = (req.query.metric ?? '').split(',').filter(Boolean);
    if (!metrics.length) return noMetric();
    if (metrics.some((m) => !PAGE_METRICS.has(m))) return invalidMetric();
    const period = req.query.period ?? 'day';
    if (period !== 'day') return graphError({ message: '(#100) The period must be one of: day, week, days_28', code: 100 });
    const until = timeParam(req.query.until) ?? now();
    const since = timeParam(req.query.since) ?? until - 2 * DAY_MS;
    if (!Number.isFinite(since) || !Number.isFinite(until)) return graphError({ message: '(#100) Invalid since or until', code: 100 });
    if ((until - since) / 1000 > MAX_RANGE_S) return graphError({ message: '(#100) There cannot be more than 90 days (7776000 s) between since and until', code: 100 });
    // Parameters are checked first; then the Page must have the likes Meta asks for any insights.
    if (page.fanCount < PAGE_INSIGHTS_MIN_LIKES) return pages.smallPageInsights === 'error' ? fbe.tooFewLikesForInsights() : { status: 200, body: { data: [] } };
    const days = pages.pageDays.get(page.id) ?? new Map<string, Record<string, number>>();
    const dayKeys: string[] = [];
    for (let t = Math.floor(since / DAY_MS) * DAY_MS; t < until; t += DAY_MS) dayKeys.push(new Date(t).toISOString().slice(0, 10));
    return {
      status: 200,
      body: {
        data: metrics.map((name) => ({
          name, period,
          values: dayKeys.map((day) => ({ value: days.get(day)?.[name] ?? 0, end_time: graphTime(Date.parse(`${day}T00:00:00Z`) + DAY_MS) })),
          title: name, description: name, id: `${page.id}/insights/${name}/${period}`,
        })),
      },
    };
  };

  world.insightEdges.push((req) => {
    settle();
    const id = req.params.id!;
    const post = pages.posts.get(id);
    const page = world.store.pages.get(id);
    if (!post && !page) return undefined;
    const checked = asPage(req, post?.pageId ?? id, false);
    if (refused(checked)) return checked;
    const access = world.oauth.checkAccess(req.token!);
    if (access.ok && !access.scopes.includes('read_insights')) return withUsage(checked.id, graphError({ message: '(#10) Application does not have permission for this action', code: 10 }));
    pages.calls.push({ method: 'GET', path: `/${id}/insights`, params: Object.fromEntries(Object.entries(req.query).filter(([k, v]) => v !== undefined && k !== 'access_token')) as Record<string, string> });
    return withUsage(checked.id, post ? postInsights(req, post) : pageInsights(req, checked));
  });

  /**
   * The Page's posts newest first. With since/until Graph pages by time: `next` asks `until` (the last
   * post's second) with a `__paging_token` naming that post; without, by cursor (`after`).
   */
  const postsEdge = (edge: string): FbRoute => ({
    method: 'GET',
    url: `/:id/${edge}`,
    versioned: true,
    handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/${edge}`, false, (page) => {
      settle();
      const since = timeParam(req.query.since);
      const until = timeParam(req.query.until);
      if (Number.isNaN(since) || Number.isNaN(until)) return graphError({ message: '(#100) Invalid since or until', code: 100 });
      let all = [...pages.posts.values()]
        // `until` names a second: the whole second is in.
        .filter((p) => p.pageId === page.id && p.kind !== 'story' && (since === undefined || p.createdAt >= since) && (until === undefined || p.createdAt < until + 1000))
        .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
      const path = `/${page.id}/${edge}`;
      if (since === undefined && until === undefined) {
        const list = pageOf(req, all, path, { default: 25, max: 100 });
        return render(req, (fields) => listBody(list.items.map((p) => renderPost(p, fields)), list));
      }
      const after = req.query.__paging_token ? Buffer.from(req.query.__paging_token, 'base64url').toString('utf8') : undefined;
      const at = after === undefined ? -1 : all.findIndex((p) => p.id === after);
      if (at >= 0) all = all.slice(at + 1);
      const limit = Math.min(Math.max(Number(req.query.limit ?? 25) || 25, 1), 100);
      const items = all.slice(0, limit);
      const next = all.length > limit ? timeNext(req, path, items.at(-1)!) : undefined;
      return render(req, (fields) => ({ data: items.map((p) => renderPost(p, fields)), ...(next ? { paging: { next } } : {}) }));
    })(),
  });

  /** GET /{video-id}/video_insights: a video's or Reel's lifetime metrics (views and reach from setPostStats). */
  const videoInsights: FbRoute = {
    method: 'GET',
    url: '/:id/video_insights',
    versioned: true,
    handler: (req) => {
      settle();
      const video = pages.videos.get(req.params.id!);
      if (!video) return unsupportedGet(req.params.id!);
      return onPage(video.pageId, req, `/${video.id}/video_insights`, false, () => {
        const stats = pages.postStats.get(video.id);
        const values: Record<string, number> = video.kind === 'reel'
          ? { blue_reels_play_count: stats?.views ?? 0, post_impressions_unique: stats?.reach ?? 0, post_video_avg_time_watched: 0 }
          : { total_video_views: stats?.views ?? 0, total_video_views_unique: stats?.reach ?? 0, total_video_avg_time_watched: 0 };
        return { status: 200, body: { data: Object.entries(values).map(([name, value]) => ({ name, period: 'lifetime', values: [{ value }], title: name, description: name, id: `${video.id}/video_insights/${name}/lifetime` })) } };
      })();
    },
  };

  return [postsEdge('published_posts'), postsEdge('posts'), videoInsights];
}
