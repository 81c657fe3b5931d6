// The Display API routes of the TikTok emulator (open.tiktokapis.com, scope video.list):
// - POST /v2/video/list/?fields=… {cursor?, max_count?}: the creator's public videos, newest first,
//   max_count 1–20 (default 10); `cursor` is a UTC epoch in milliseconds: the videos created before it.
//   → data {videos, cursor (the last video's time, ms), has_more}.
// - POST /v2/video/query/?fields=… {filters:{video_ids:[≤20]}}: those of the ids that are the creator's
//   public videos (others are left out). → data {videos, cursor, has_more:false}.
// A video is public when a test adds one, when a direct post completes with a public id, or when the
// creator finishes an inbox draft in the app (`postFromInbox`: a new id Crier never learns). Each
// endpoint allows 600 requests a minute per token (429 rate_limit_exceeded).
import { bearerToken, isPlainObject, jsonBody, rawBody, type Reply } from '../../shared/http.ts';
import { WindowLimiter } from '../../shared/rate.ts';
import type { DisplayVideo, DisplayVideos } from '../display.ts';
import { accessTokenInvalid, invalidParams, logId, rateLimitExceeded, scopeNotAuthorized } from '../errors.ts';
import type { TikTokRequest, TikTokRoute, TikTokWorld } from '../state.ts';

const FIELDS = ['id', 'create_time', 'cover_image_url', 'share_url', 'video_description', 'duration', 'height', 'width', 'title',
  'embed_html', 'embed_link', 'like_count', 'comment_count', 'share_count', 'view_count'];
const MAX_COUNT = 20;
const DEFAULT_COUNT = 10;

export function displayRoutes(world: TikTokWorld, videos: DisplayVideos): TikTokRoute[] {
  const limiter = new WindowLimiter();
  const ok = (data: Record<string, unknown>): Reply => ({ status: 200, body: { data, error: { code: 'ok', message: '', log_id: logId() } } });

  /** The caller's open_id and the fields asked, or TikTok's refusal. */
  const open = (req: TikTokRequest, endpoint: string): { openId: string; fields: string[]; body: Record<string, unknown> } | Reply => {
    const token = bearerToken(typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined);
    const check = world.oauth.checkAccess(token);
    if (!check.ok || !token || !world.users.has(check.userId)) return accessTokenInvalid();
    if (!check.scopes.includes('video.list')) return scopeNotAuthorized();
    const perMinute = world.rateLimits.display;
    if (perMinute > 0 && !limiter.consume(`${endpoint}:${token}`, perMinute, 60_000, world.clock.now()).ok) return rateLimitExceeded();
    const fields = (req.query.fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
    if (!fields.length) return invalidParams('fields is required.');
    const unknown = fields.find((f) => !FIELDS.includes(f));
    if (unknown) return invalidParams(`Invalid field: ${unknown}`);
    // An empty body is every default; anything else must be a JSON object.
    const raw = rawBody(req.body).length ? jsonBody(req.body) : {};
    if (!isPlainObject(raw)) return invalidParams('The request body is not valid JSON.');
    return { openId: check.userId, fields, body: raw };
  };
  const usernameOf = (openId: string) => world.users.get(openId)?.username ?? '';

  return [
    {
      method: 'POST',
      url: '/v2/video/list/',
      handler: (req) => {
        const opened = open(req, 'list');
        if ('status' in opened) return opened;
        const { max_count: max = DEFAULT_COUNT, cursor } = opened.body;
        if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > MAX_COUNT) return invalidParams(`max_count must be between 1 and ${MAX_COUNT}.`);
        if (cursor !== undefined && (!Number.isInteger(cursor) || (cursor as number) < 0)) return invalidParams('cursor must be a UTC Unix timestamp in milliseconds.');
        const all = videos.of(opened.openId).filter((v) => cursor === undefined || v.createdAtMs < (cursor as number));
        const page = all.slice(0, max as number);
        const last = page.at(-1);
        return ok({
          videos: page.map((v) => videoBody(v, opened.fields, usernameOf(opened.openId))),
          cursor: last ? last.createdAtMs : (cursor ?? world.clock.now()),
          has_more: all.length > page.length,
        });
      },
    },
    {
      method: 'POST',
      url: '/v2/video/query/',
      handler: (req) => {
        const opened = open(req, 'query');
        if ('status' in opened) return opened;
        const filters = opened.body.filters;
        const ids = isPlainObject(filters) ? filters.video_ids : undefined;
        if (!Array.isArray(ids) || !ids.length || ids.length > MAX_COUNT || !ids.every((id) => typeof id === 'string')) {
          return invalidParams(`filters.video_ids must hold 1 to ${MAX_COUNT} video ids.`);
        }
        const mine = videos.of(opened.openId).filter((v) => ids.includes(v.id));
        return ok({ videos: mine.map((v) => videoBody(v, opened.fields, usernameOf(opened.openId))), cursor: 0, has_more: false });
      },
    },
  ];
}

/** The fields asked of a video, as the Video Object names them. */
function videoBody(v: DisplayVideo, fields: string[], username: string): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: v.id,
    create_time: Math.floor(v.createdAtMs / 1000),
    cover_image_url: `https://p16-sign.tiktokcdn-us.com/tos-useast5-p-0068-tx/${v.id}~c5_300x400.jpeg`,
    share_url: `https://www.tiktok.com/@${username}/video/${v.id}?utm_campaign=tt4d_open_api&utm_source=emulator`,
    video_description: v.videoDescription,
    duration: v.duration,
    height: v.height,
    width: v.width,
    title: v.title,
    embed_html: `<blockquote class="tiktok-embed" cite="https://www.tiktok.com/@${username}/video/${v.id}" data-video-id="${v.id}"></blockquote>`,
    embed_link: `https://www.tiktok.com/player/v1/${v.id}`,
    like_count: v.likeCount,
    comment_count: v.commentCount,
    share_count: v.shareCount,
    view_count: v.viewCount,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f]]));
}
