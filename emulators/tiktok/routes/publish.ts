// The Content Posting API (open.tiktokapis.com), in TikTok's v2 envelope:
// - POST /v2/post/publish/creator_info/query/ (video.publish): the creator's options.
// - POST /v2/post/publish/video/init/ (video.publish, direct) and /inbox/video/init/ (video.upload):
//   FILE_UPLOAD with TikTok's chunk rules checked at init; answers publish_id and upload_url.
// - POST /v2/post/publish/content/init/ (PHOTO, PULL_FROM_URL; video.publish or video.upload by
//   post_mode): the photos are downloaded by the emulator itself, from verified prefixes only.
// - POST /v2/post/publish/status/fetch/: the publish's status; each fetch moves processing on.
// Direct posts are checked against the creator (privacy options, an unaudited app's private-only
// rule, the creator's posts of the day) and the app's cap on distinct creators in 24 hours.
import { bearerToken, isPlainObject, jsonBody, type Reply } from '../../shared/http.ts';
import { WindowLimiter } from '../../shared/rate.ts';
import { accessTokenInvalid, apiError, invalidParams, logId, rateLimitExceeded, scopeNotAuthorized } from '../errors.ts';
import { pullPhotos } from '../photos.ts';
import type { Publish, Publishing } from '../publishing.ts';
import type { TikTokRequest, TikTokRoute, TikTokUser, TikTokWorld } from '../world.ts';

const MB = 1024 * 1024;
const TITLE_MAX = { video: 2200, photo: 90 };

/** Requests per minute per user token (Content Posting references; display: each Display API endpoint, 600). */
export const DEFAULT_RATE_LIMITS = { creatorInfo: 20, init: 6, status: 30, display: 600 };
export type RateLimits = typeof DEFAULT_RATE_LIMITS;

const ok = (data: Record<string, unknown>): Reply => ({ status: 200, body: { data, error: { code: 'ok', message: '', log_id: logId() } } });
const forbidden = (code: string, message: string): Reply => apiError(403, code, message);

interface Caller {
  user: TikTokUser;
  token: string;
  scopes: string[];
}

export function publishRoutes(world: TikTokWorld, publishing: Publishing): TikTokRoute[] {
  const limiter = new WindowLimiter();

  /** The caller, or the refusal: token, scope, then the endpoint's per-minute limit. */
  const caller = (req: TikTokRequest, scope: string | string[], limit: keyof RateLimits): Caller | Reply => {
    const token = bearerToken(typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined);
    const check = world.oauth.checkAccess(token);
    if (!check.ok || !token) return accessTokenInvalid();
    const user = world.users.get(check.userId);
    if (!user) return accessTokenInvalid();
    const scopes = Array.isArray(scope) ? scope : [scope];
    if (!scopes.some((s) => check.scopes.includes(s))) return scopeNotAuthorized();
    const perMinute = world.rateLimits[limit];
    if (perMinute > 0 && !limiter.consume(`${limit}:${token}`, perMinute, 60_000, publishing.clock.now()).ok) return rateLimitExceeded();
    return { user, token, scopes: check.scopes };
  };
  const isReply = (value: Caller | Reply): value is Reply => 'status' in value;

  /** The JSON body; TikTok takes application/json only. */
  const bodyOf = (req: TikTokRequest): Record<string, unknown> | undefined => {
    if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) return undefined;
    const body = jsonBody(req.body);
    return isPlainObject(body) ? body : undefined;
  };

  /** The checks of a direct post against its creator and the app's caps; undefined when it may go. */
  const directRefusal = (user: TikTokUser, postInfo: Record<string, unknown>): Reply | undefined => {
    const creator = user.creator;
    if (publishing.unaudited && !creator.privateAccount) {
      return forbidden('unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post to private accounts.');
    }
    if (!creator.privacyLevelOptions.includes(postInfo.privacy_level as never)) {
      return forbidden('privacy_level_option_mismatch', `privacy_level ${String(postInfo.privacy_level)} is not in the creator's privacy_level_options.`);
    }
    if (!publishing.activeCreators().has(user.openId) && publishing.activeCreators().size >= publishing.creatorCap) {
      return forbidden('reached_active_user_cap', 'The number of active users posting through this client in 24 hours has reached the limit.');
    }
    if (publishing.postsToday(user.openId) >= publishing.creatorDailyPosts) {
      return forbidden('spam_risk_too_many_posts', 'The creator has reached the daily post cap for API clients.');
    }
    return undefined;
  };

  /** An inbox draft (MEDIA_UPLOAD) past the creator's pending shares of the last 24 hours; undefined when it may go. */
  const inboxRefusal = (user: TikTokUser): Reply | undefined => {
    if (publishing.pendingShareCap <= 0 || publishing.pendingShares(user.openId) < publishing.pendingShareCap) return undefined;
    return forbidden('spam_risk_too_many_pending_share', 'The daily upload cap from the API is reached for the current user.');
  };

  const record = (path: string, user: TikTokUser, body: unknown, answer: Reply, publish?: Publish): Reply => {
    const code = (answer.body as { error?: { code?: string } })?.error?.code ?? 'ok';
    publishing.inits.push({ path, openId: user.openId, body: structuredClone(body), publishId: publish?.publishId ?? null, answer: code, at: publishing.clock.now() });
    return answer;
  };

  const videoInit = (path: string, mode: Publish['mode']) => (req: TikTokRequest): Reply => {
    const who = caller(req, mode === 'DIRECT_POST' ? 'video.publish' : 'video.upload', 'init');
    if (isReply(who)) return who;
    const body = bodyOf(req);
    if (!body) return record(path, who.user, req.body, invalidParams('The request body must be a JSON object.'));
    const source = isPlainObject(body.source_info) ? body.source_info : {};
    const postInfo = isPlainObject(body.post_info) ? body.post_info : {};
    const refusal = source.source !== 'FILE_UPLOAD'
      ? invalidParams('source_info.source must be FILE_UPLOAD (PULL_FROM_URL of videos is not emulated).')
      : chunkRuleBroken(source) ?? (mode === 'DIRECT_POST' ? postInfoProblem(postInfo, 'video') ?? directRefusal(who.user, postInfo) : inboxRefusal(who.user));
    if (refusal) return record(path, who.user, body, refusal);
    const publish = publishing.create({
      openId: who.user.openId, kind: 'video', mode, postInfo: mode === 'DIRECT_POST' ? postInfo : {},
      upload: { videoSize: Number(source.video_size), chunkSize: Number(source.chunk_size), totalChunkCount: Number(source.total_chunk_count) },
    });
    const uploadUrl = `${world.origin}/upload/?upload_id=${encodeURIComponent(publish.publishId)}&upload_token=${publish.publishId.slice(-12)}`;
    return record(path, who.user, body, ok({ publish_id: publish.publishId, upload_url: uploadUrl }), publish);
  };

  const photoInit = (req: TikTokRequest): Reply => {
    const path = '/v2/post/publish/content/init/';
    const body = bodyOf(req);
    const mode = body?.post_mode === 'DIRECT_POST' ? 'DIRECT_POST' : 'MEDIA_UPLOAD';
    const who = caller(req, mode === 'DIRECT_POST' ? 'video.publish' : 'video.upload', 'init');
    if (isReply(who)) return who;
    if (!body) return record(path, who.user, req.body, invalidParams('The request body must be a JSON object.'));
    const source = isPlainObject(body.source_info) ? body.source_info : {};
    const postInfo = isPlainObject(body.post_info) ? body.post_info : {};
    const urls = Array.isArray(source.photo_images) ? source.photo_images.map(String) : [];
    const refusal = photoProblem(body, source, urls) ?? postInfoProblem(postInfo, 'photo', mode)
      ?? (urls.find((u) => !publishing.isVerified(u)) !== undefined
        ? forbidden('url_ownership_unverified', 'The domain or URL prefix of the media URL is not verified for this client.') : undefined)
      ?? (mode === 'DIRECT_POST' ? directRefusal(who.user, postInfo) : inboxRefusal(who.user));
    if (refusal) return record(path, who.user, body, refusal);
    const publish = publishing.create({ openId: who.user.openId, kind: 'photo', mode, postInfo });
    void pullPhotos(publishing, publish, urls);
    return record(path, who.user, body, ok({ publish_id: publish.publishId }), publish);
  };

  return [
    {
      method: 'POST',
      url: '/v2/post/publish/creator_info/query/',
      handler: (req) => {
        const who = caller(req, 'video.publish', 'creatorInfo');
        if (isReply(who)) return who;
        publishing.creatorInfoCalls.push({ openId: who.user.openId, at: publishing.clock.now() });
        const c = who.user.creator;
        return ok({
          creator_avatar_url: who.user.avatarUrl ?? '',
          creator_username: who.user.username,
          creator_nickname: who.user.displayName,
          privacy_level_options: c.privacyLevelOptions,
          comment_disabled: c.commentDisabled,
          duet_disabled: c.duetDisabled,
          stitch_disabled: c.stitchDisabled,
          max_video_post_duration_sec: c.maxVideoPostDurationSec,
        });
      },
    },
    { method: 'POST', url: '/v2/post/publish/video/init/', handler: videoInit('/v2/post/publish/video/init/', 'DIRECT_POST') },
    { method: 'POST', url: '/v2/post/publish/inbox/video/init/', handler: videoInit('/v2/post/publish/inbox/video/init/', 'MEDIA_UPLOAD') },
    { method: 'POST', url: '/v2/post/publish/content/init/', handler: photoInit },
    {
      method: 'POST',
      url: '/v2/post/publish/status/fetch/',
      handler: (req) => {
        const who = caller(req, ['video.publish', 'video.upload'], 'status');
        if (isReply(who)) return who;
        const publishId = String(bodyOf(req)?.publish_id ?? '');
        const publish = publishing.publishes.get(publishId);
        if (!publish || publish.openId !== who.user.openId) return invalidParams(`publish_id ${publishId || '(none)'} is not valid.`);
        publishing.poll(publish);
        publishing.statusPolls.push({ publishId, status: publish.status, at: publishing.clock.now() });
        return ok({
          status: publish.status,
          ...(publish.failReason ? { fail_reason: publish.failReason } : {}),
          // list<int64>: JSON numbers written with every digit (beyond what a JS number holds exactly).
          publicaly_available_post_id: publish.postId ? [int64(publish.postId)] : [],
          ...(publish.upload ? { uploaded_bytes: publish.upload.received } : {}),
          ...(publish.photos ? { downloaded_bytes: publish.photos.reduce((n, p) => n + (p.bytes ?? 0), 0) } : {}),
        });
      },
    },
  ];
}

/** An int64 as a JSON number with all its digits (JSON.stringify writes a raw JSON text as is). */
const int64 = (digits: string): unknown => (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(digits);

/** TikTok's chunk rules (Media Transfer Guide), checked at init. */
function chunkRuleBroken(source: Record<string, unknown>): Reply | undefined {
  const size = Number(source.video_size);
  const chunk = Number(source.chunk_size);
  const count = Number(source.total_chunk_count);
  if (![size, chunk, count].every((n) => Number.isInteger(n) && n > 0)) return invalidParams('video_size, chunk_size and total_chunk_count must be positive integers.');
  if (size < 5 * MB && (chunk !== size || count !== 1)) return invalidParams('A video under 5 MB must be uploaded whole: chunk_size = video_size, total_chunk_count = 1.');
  if (size >= 5 * MB && count > 1 && (chunk < 5 * MB || chunk > 64 * MB)) return invalidParams('chunk_size must be between 5 MB and 64 MB.');
  if (size > 64 * MB && count === 1) return invalidParams('A video over 64 MB must be uploaded in several chunks.');
  if (count !== Math.floor(size / chunk)) return invalidParams('total_chunk_count must be video_size / chunk_size rounded down.');
  if (count > 1000) return invalidParams('At most 1000 chunks.');
  if (size - (count - 1) * chunk > 128 * MB) return invalidParams('The last chunk may not exceed 128 MB.');
  return undefined;
}

function postInfoProblem(postInfo: Record<string, unknown>, kind: 'video' | 'photo', mode: Publish['mode'] = 'DIRECT_POST'): Reply | undefined {
  const title = postInfo.title;
  if (title !== undefined && (typeof title !== 'string' || title.length > TITLE_MAX[kind])) return invalidParams(`post_info.title must be a string of at most ${TITLE_MAX[kind]} UTF-16 code units.`);
  const description = postInfo.description;
  if (description !== undefined && (typeof description !== 'string' || description.length > 4000)) return invalidParams('post_info.description must be a string of at most 4000 UTF-16 code units.');
  if (mode === 'DIRECT_POST' && typeof postInfo.privacy_level !== 'string') return invalidParams('post_info.privacy_level is required.');
  // The content sharing guidelines: branded content (a paid partnership) cannot be private.
  if (mode === 'DIRECT_POST' && postInfo.brand_content_toggle === true && postInfo.privacy_level === 'SELF_ONLY') {
    return invalidParams('Branded content visibility cannot be set to private: privacy_level SELF_ONLY with brand_content_toggle true.');
  }
  return undefined;
}

function photoProblem(body: Record<string, unknown>, source: Record<string, unknown>, urls: string[]): Reply | undefined {
  if (body.media_type !== 'PHOTO') return invalidParams('media_type must be PHOTO.');
  if (body.post_mode !== 'DIRECT_POST' && body.post_mode !== 'MEDIA_UPLOAD') return invalidParams('post_mode must be DIRECT_POST or MEDIA_UPLOAD.');
  if (source.source !== 'PULL_FROM_URL') return invalidParams('source_info.source must be PULL_FROM_URL for photos.');
  if (urls.length < 1 || urls.length > 35) return invalidParams('source_info.photo_images must hold 1 to 35 URLs.');
  const cover = Number(source.photo_cover_index ?? 0);
  if (!Number.isInteger(cover) || cover < 0 || cover >= urls.length) return invalidParams('source_info.photo_cover_index is out of range.');
  return undefined;
}
