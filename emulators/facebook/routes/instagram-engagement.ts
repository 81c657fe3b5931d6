// What the engagement side reads and writes on an Instagram account (Instagram API with Facebook
// Login, the Page's token): answers to a comment (GET/POST /{ig-comment-id}/replies; an answer to an
// answer goes under the top-level comment), DELETE /{ig-media-id} (instagram_manage_contents: the
// whole media with its comments) and DELETE /{ig-comment-id}, /{ig-media-id}/insights with the
// metrics of the media's product type since April 2025 (impressions, plays and video_views are
// refused), and /{ig-user-id}/insights (period=day, metric_type=total_value over since/until, at most
// 30 days apart).
import type { Reply } from '../../shared/http.ts';
import { graphError } from '../errors/graph.ts';
import { listReplies } from './instagram-comments.ts';
import { instagramContext } from './instagram-context.ts';
import * as ig from '../errors/instagram.ts';
import type { IgComment, IgMedia } from '../state/instagram.ts';
import type { IgAccount } from '../state/accounts.ts';
import type { FbRequest, FbRoute, FbWorld } from './context.ts';
import { timeParam } from './page-engagement.ts';

const FEED = ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions', 'follows', 'profile_visits', 'profile_activity'];
const MEDIA_METRICS: Record<IgMedia['productType'], Set<string>> = {
  FEED: new Set(FEED),
  REELS: new Set(['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions', 'ig_reels_avg_watch_time', 'ig_reels_video_view_total_time']),
  STORY: new Set(['views', 'reach', 'replies', 'shares', 'total_interactions', 'follows', 'profile_visits', 'navigation']),
};
const ACCOUNT_METRICS = new Set(['views', 'reach', 'accounts_engaged', 'total_interactions', 'likes', 'comments', 'shares', 'saves', 'replies', 'follows_and_unfollows', 'profile_links_taps', 'follower_count']);
/** Metrics Meta gives only as metric_type=total_value. */
const TOTAL_ONLY = new Set(['views', 'accounts_engaged', 'total_interactions', 'likes', 'comments', 'shares', 'saves', 'replies', 'follows_and_unfollows', 'profile_links_taps']);
const DAY_MS = 86_400_000;
const MAX_RANGE_MS = 30 * DAY_MS;

const metricNotAllowed = (allowed: Set<string>) =>
  graphError({ message: `(#100) metric[0] must be one of the following values: ${[...allowed].join(', ')}`, code: 100 });
const noMetric = () => graphError({ message: '(#100) The parameter metric is required', code: 100 });

export function instagramEngagementRoutes(world: FbWorld): FbRoute[] {
  const store = world.instagram;
  const { withUsage, access } = instagramContext(world);
  const commentById = (id: string) => store.comments.find((c) => c.id === id);

  /** Runs `body` as the account owning the object, counting the call; an id not Instagram's is undefined. */
  const asOwner = (req: FbRequest, edge: string, owner: string, write: boolean, scope: string, body: (account: IgAccount) => Reply): Reply => {
    const account = access(req, owner, write, scope);
    if ('status' in account) return account;
    store.calls.push({ method: req.method, path: `/${req.params.id}${edge}`, params: paramsOf(req) });
    if (store.now() < store.throttledUntil) return withUsage(account.id, ig.throttled());
    return withUsage(account.id, body(account));
  };

  const answer = (req: FbRequest, comment: IgComment, account: IgAccount): Reply => {
    if (!req.query.message) return ig.invalidParameter('The parameter message is required.');
    // "You cannot reply to hidden comments" (ig-comment/replies reference); the answer's wording is invented.
    if (comment.hidden) return ig.invalidParameter('You cannot reply to a hidden comment.');
    const parent = comment.parentId ? commentById(comment.parentId)! : comment;
    const reply: IgComment = {
      id: store.nextId('1810'), mediaId: comment.mediaId, igUserId: account.id, username: account.username, text: req.query.message,
      timestamp: store.now(), parentId: parent.id, likeCount: 0, hidden: false,
    };
    store.comments.push(reply);
    return { status: 200, body: { id: reply.id } };
  };

  const replies = (write: boolean): FbRoute => ({
    method: write ? 'POST' : 'GET',
    url: '/:id/replies',
    versioned: true,
    handler: (req) => {
      const comment = commentById(req.params.id!);
      if (!comment) return write ? ig.unsupportedPost(req.params.id!) : graphError({ message: `Unsupported get request. Object with ID '${req.params.id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, code: 100, subcode: 33, type: 'GraphMethodException' });
      const owner = store.media.get(comment.mediaId)!.igUserId;
      return asOwner(req, '/replies', owner, write, 'instagram_manage_comments', (account) => (write ? answer(req, comment, account) : listReplies(req, store, comment)));
    },
  });

  world.deleters.push((req) => {
    const id = req.params.id!;
    const media = store.media.get(id);
    const comment = media ? undefined : commentById(id);
    if (!media && !comment) return undefined;
    const owner = media?.igUserId ?? store.media.get(comment!.mediaId)!.igUserId;
    return asOwner(req, '', owner, true, media ? 'instagram_manage_contents' : 'instagram_manage_comments', () => {
      const gone = (c: IgComment) => (media ? c.mediaId === id : c.id === id || c.parentId === id);
      for (let i = store.comments.length - 1; i >= 0; i--) if (gone(store.comments[i]!)) store.comments.splice(i, 1);
      if (media) {
        store.media.delete(id);
        store.mediaInsights.delete(id);
      }
      return { status: 200, body: { success: true } };
    });
  });

  const mediaInsights = (req: FbRequest, media: IgMedia): Reply => {
    const metrics = (req.query.metric ?? '').split(',').filter(Boolean);
    if (!metrics.length) return noMetric();
    const allowed = MEDIA_METRICS[media.productType];
    if (metrics.some((m) => !allowed.has(m))) return metricNotAllowed(allowed);
    // "If insights data you are requesting does not exist or is currently unavailable, the API returns
    // an empty data set instead of 0 for individual metrics" (instagram-media/insights reference): a
    // metric nobody set is left out, never answered 0. Comments are counted from the media's comments.
    const values = store.mediaInsights.get(media.id) ?? {};
    const value = (name: string) => (name === 'comments' ? store.comments.filter((c) => c.mediaId === media.id).length : values[name]);
    const known = metrics.filter((name) => value(name) !== undefined);
    return { status: 200, body: { data: known.map((name) => ({ name, period: 'lifetime', values: [{ value: value(name) }], title: name, description: name, id: `${media.id}/insights/${name}/lifetime` })) } };
  };

  const accountInsights = (req: FbRequest, account: IgAccount): Reply => {
    const metrics = (req.query.metric ?? '').split(',').filter(Boolean);
    if (!metrics.length) return noMetric();
    if (metrics.some((m) => !ACCOUNT_METRICS.has(m))) return metricNotAllowed(ACCOUNT_METRICS);
    if ((req.query.period ?? '') !== 'day') return graphError({ message: '(#100) period must be one of the following values: day, lifetime', code: 100 });
    const totalOnly = metrics.filter((m) => TOTAL_ONLY.has(m));
    if (totalOnly.length && req.query.metric_type !== 'total_value') {
      return graphError({ message: `(#100) The following metrics (${totalOnly.join(', ')}) should be specified with parameter metric_type=total_value`, code: 100 });
    }
    const until = timeParam(req.query.until) ?? store.now();
    const since = timeParam(req.query.since) ?? until - DAY_MS;
    if (!Number.isFinite(since) || !Number.isFinite(until)) return graphError({ message: '(#100) Invalid since or until', code: 100 });
    if (until - since > MAX_RANGE_MS) return graphError({ message: '(#100) The since and until parameters must be no more than 30 days apart', code: 100 });
    const days = store.accountDays.get(account.id) ?? new Map<string, Record<string, number>>();
    const total = (name: string) => {
      let sum = 0;
      for (let t = Math.floor(since / DAY_MS) * DAY_MS; t < until; t += DAY_MS) sum += days.get(new Date(t).toISOString().slice(0, 10))?.[name] ?? 0;
      return sum;
    };
    return { status: 200, body: { data: metrics.map((name) => ({ name, period: 'day', title: name, description: name, total_value: { value: total(name) }, id: `${account.id}/insights/${name}/day` })) } };
  };

  world.insightEdges.push((req) => {
    const id = req.params.id!;
    const media = store.media.get(id);
    const owner = media?.igUserId ?? (world.store.instagram(id) ? id : undefined);
    if (!owner) return undefined;
    return asOwner(req, '/insights', owner, false, 'instagram_manage_insights', (account) => (media ? mediaInsights(req, media) : accountInsights(req, account)));
  });

  return [replies(false), replies(true)];
}

function paramsOf(req: FbRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) if (value !== undefined && name !== 'access_token' && name !== 'appsecret_proof') out[name] = value;
  return out;
}
