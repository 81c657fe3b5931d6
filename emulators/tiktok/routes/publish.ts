// The Content Posting API (open.tiktokapis.com), in TikTok's v2 envelope:
// - POST /v2/post/publish/creator_info/query/ (video.publish): the creator's options.
// - POST /v2/post/publish/video/init/ (video.publish, direct) and /inbox/video/init/ (video.upload):
//   FILE_UPLOAD with TikTok's chunk rules checked at init (answers publish_id and upload_url), or
//   PULL_FROM_URL from a verified prefix (answers publish_id; the emulator downloads the video).
// - POST /v2/post/publish/content/init/ (PHOTO, PULL_FROM_URL; video.publish or video.upload by
//   post_mode): the photos are downloaded by the emulator itself, from verified prefixes only.
// - POST /v2/post/publish/status/fetch/: the publish's status; each fetch moves processing on.
// Direct posts are checked against the creator (privacy options, an unaudited app's private-only
// rule, the creator's posts of the day) and the app's cap on distinct creators in 24 hours.
import { bearerToken, isPlainObject, type Reply } from '../../shared/http.ts';
import { WindowLimiter } from '../../shared/rate.ts';
import {
  accessTokenInvalid, forbidden, invalidParams, logId, rateLimitExceeded, scopeNotAuthorized, urlOwnershipUnverified,
} from '../errors.ts';
import { pullPhotos } from '../photos.ts';
import type { Publish, Publishing } from '../publishing.ts';
import type { TikTokRequest, TikTokRoute, TikTokUser, TikTokWorld } from '../state.ts';
import { jsonObjectBody, photoProblem, postInfoProblem, videoSourceProblem } from '../validate.ts';
import { pullVideo } from '../video-pull.ts';

/** Requests per minute per user token (Content Posting references; display: each Display API endpoint, 600). */
export const DEFAULT_RATE_LIMITS = { creatorInfo: 20, init: 6, status: 30, display: 600 };
export type RateLimits = typeof DEFAULT_RATE_LIMITS;

const ok = (data: Record<string, unknown>): Reply => ({ status: 200, body: { data, error: { code: 'ok', message: '', log_id: logId() } } });

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

  const bodyOf = (req: TikTokRequest) => jsonObjectBody(req.headers, req.body);

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
    const refusal = videoSourceProblem(source)
      ?? (mode === 'DIRECT_POST' ? postInfoProblem(postInfo, 'video') : undefined)
      ?? (source.source === 'PULL_FROM_URL' && !publishing.isVerified(String(source.video_url)) ? urlOwnershipUnverified() : undefined)
      ?? (mode === 'DIRECT_POST' ? directRefusal(who.user, postInfo) : inboxRefusal(who.user));
    if (refusal) return record(path, who.user, body, refusal);
    const base = { openId: who.user.openId, kind: 'video' as const, mode, postInfo: mode === 'DIRECT_POST' ? postInfo : {} };
    if (source.source === 'PULL_FROM_URL') {
      // TikTok answers the publish id alone and downloads the video itself.
      const publish = publishing.create({ ...base, videoUrl: String(source.video_url) });
      void pullVideo(publishing, publish);
      return record(path, who.user, body, ok({ publish_id: publish.publishId }), publish);
    }
    const publish = publishing.create({
      ...base,
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
      ?? (urls.some((u) => !publishing.isVerified(u)) ? urlOwnershipUnverified() : undefined)
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
          ...(publish.pulledVideo ? { downloaded_bytes: publish.pulledVideo.bytes } : {}),
          ...(publish.photos ? { downloaded_bytes: publish.photos.reduce((n, p) => n + (p.bytes ?? 0), 0) } : {}),
        });
      },
    },
  ];
}

/** An int64 as a JSON number with all its digits (JSON.stringify writes a raw JSON text as is). */
const int64 = (digits: string): unknown => (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(digits);
