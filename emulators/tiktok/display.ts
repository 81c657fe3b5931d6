// The Display API's videos on the TikTok emulator (open.tiktokapis.com, scope video.list):
// - POST /v2/video/list/?fields=… {cursor?, max_count?}: the creator's public videos, newest first,
//   max_count 1–20 (default 10); `cursor` is a UTC epoch in milliseconds: the videos created before it.
//   → data {videos, cursor (the last video's time, ms), has_more}.
// - POST /v2/video/query/?fields=… {filters:{video_ids:[≤20]}}: those of the ids that are the creator's
//   public videos (others are left out). → data {videos, cursor, has_more:false}.
// A video is public when a test adds one, when a direct post completes with a public id, or when the
// creator finishes an inbox draft in the app (`postFromInbox`: a new id Crier never learns). Each
// endpoint allows 600 requests a minute per token (429 rate_limit_exceeded).
import { bearerToken, isPlainObject, jsonBody, rawBody, type Reply } from '../shared/http.ts';
import { WindowLimiter } from '../shared/rate.ts';
import { accessTokenInvalid, invalidParams, logId, rateLimitExceeded, scopeNotAuthorized } from './errors.ts';
import { newInt64Id, type Publish, type Publishing } from './publishing.ts';
import type { TikTokRequest, TikTokRoute, TikTokWorld } from './world.ts';

/** A public video as the Display API's Video Object describes it. */
export interface DisplayVideo {
  id: string;
  openId: string;
  /** Milliseconds (create_time answers seconds; the cursor is in milliseconds). */
  createdAtMs: number;
  title: string;
  videoDescription: string;
  duration: number;
  width: number;
  height: number;
  likeCount: number;
  commentCount: number;
  shareCount: number;
  viewCount: number;
  /** The publish it came from, when Crier's post became it. */
  publishId: string | null;
}

export type AddVideoInput = Partial<Omit<DisplayVideo, 'openId'>>;

const FIELDS = ['id', 'create_time', 'cover_image_url', 'share_url', 'video_description', 'duration', 'height', 'width', 'title',
  'embed_html', 'embed_link', 'like_count', 'comment_count', 'share_count', 'view_count'];
const MAX_COUNT = 20;
const DEFAULT_COUNT = 10;

export class DisplayVideos {
  readonly #videos: DisplayVideo[] = [];
  readonly #publishing: Publishing;
  readonly #world: TikTokWorld;

  constructor(publishing: Publishing, world: TikTokWorld) {
    this.#publishing = publishing;
    this.#world = world;
  }

  add(openId: string, input: AddVideoInput = {}): DisplayVideo {
    const video: DisplayVideo = {
      id: input.id ?? newVideoId(), openId, createdAtMs: input.createdAtMs ?? this.#world.clock.now(),
      title: input.title ?? '', videoDescription: input.videoDescription ?? '', duration: input.duration ?? 15, width: input.width ?? 1080,
      height: input.height ?? 1920, likeCount: input.likeCount ?? 0, commentCount: input.commentCount ?? 0, shareCount: input.shareCount ?? 0,
      viewCount: input.viewCount ?? 0, publishId: input.publishId ?? null,
    };
    this.#videos.push(video);
    return video;
  }

  /** The creator's public videos, newest first (direct posts that got a public id included). */
  of(openId: string): DisplayVideo[] {
    for (const publish of this.#publishing.publishes.values()) this.#adopt(publish);
    return this.#videos.filter((v) => v.openId === openId).sort((a, b) => b.createdAtMs - a.createdAtMs);
  }

  find(id: string): DisplayVideo | undefined {
    this.of('');
    return this.#videos.find((v) => v.id === id);
  }

  /** The creator posts an inbox draft from the app: a public video under a new id. */
  postFromInbox(publishId: string): DisplayVideo {
    const publish = this.#publishing.publishes.get(publishId);
    if (!publish || publish.status !== 'SEND_TO_USER_INBOX') throw new Error(`${publishId} is not a draft in a creator's inbox`);
    publish.leftInbox = true;
    return this.add(publish.openId, { publishId, title: String(publish.postInfo.title ?? ''), videoDescription: String(publish.postInfo.description ?? publish.postInfo.title ?? '') });
  }

  #adopt(publish: Publish): void {
    if (!publish.postId || this.#videos.some((v) => v.id === publish.postId)) return;
    const title = String(publish.postInfo.title ?? '');
    this.add(publish.openId, { id: publish.postId, publishId: publish.publishId, title, videoDescription: title, createdAtMs: publish.createdAt });
  }
}

/** The Video Object's `id` is a string (of an int64's digits), unlike the status fetch's post ids. */
const newVideoId = () => newInt64Id(74n);

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
