// The Content Posting API calls publishing makes on open.tiktokapis.com, through the one network HTTP
// client (../http.ts): creator info, the three inits (direct video, inbox video, photo), the chunk
// PUTs to the upload URL, and the status fetch. Every answer is TikTok's envelope
// {"data":{…},"error":{"code","message","log_id"}}: `ok` is a success whatever the HTTP status says,
// and anything else is classified here by its code (errors.ts of TikTok's v2 error table and the
// Content Posting references' error lists).
import type { Readable } from 'node:stream';
import { PublishError } from '../../core/errors.ts';
import { NetworkHttp, type Failure, type NetworkAnswer } from '../http.ts';

export type PrivacyLevel = 'PUBLIC_TO_EVERYONE' | 'MUTUAL_FOLLOW_FRIENDS' | 'FOLLOWER_OF_CREATOR' | 'SELF_ONLY';

/** POST /v2/post/publish/creator_info/query/: what the creator may post right now. */
export interface CreatorInfo {
  username: string;
  nickname: string;
  privacyLevelOptions: PrivacyLevel[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number | undefined;
}

export interface UploadSession {
  publishId: string;
  uploadUrl: string;
}

export type PublishStatusName = 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';

export interface PublishStatus {
  status: PublishStatusName | string;
  failReason: string | undefined;
  /** `publicaly_available_post_id` (sic): the public post, once moderated; none for SELF_ONLY and inbox drafts. */
  postIds: string[];
  uploadedBytes: number | undefined;
}

/** A minute: TikTok's limits are per minute per token, and a 429 says nothing of when. */
const RATE_LIMIT_WAIT_MS = 60_000;

interface Envelope {
  data?: Record<string, unknown>;
  error?: { code?: string; message?: string; log_id?: string };
}

/** A video as the Display API's Video Object gives it (the fields asked for). */
export interface DisplayVideo {
  id: string;
  create_time?: number;
  title?: string;
  video_description?: string;
  share_url?: string;
  cover_image_url?: string;
  duration?: number;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
  view_count?: number;
}

export class TikTokClient {
  readonly #http: NetworkHttp;

  /**
   * `optionalScope`: the scope the calls of this client need beyond those every connect asks for
   * (the Display API's video.list, user.info.stats). Its absence is then a refusal of this call, not a
   * dead token: the account stays connected and can still publish.
   */
  constructor(apiUrl: string, accessToken: string, optionalScope?: string) {
    this.#http = new NetworkHttp({
      network: 'tiktok',
      baseUrl: apiUrl,
      headers: () => ({ authorization: `Bearer ${accessToken}` }),
      reasonOf,
      classify: (answer, reason) => (optionalScope ? missingScope(answer, reason, optionalScope) : undefined) ?? classify(answer, reason),
    });
  }

  /** POST /v2/video/list/: one page of the creator's public videos, newest first, created before `cursor` (ms). */
  async videoList(fields: readonly string[], maxCount: number, cursor: number | undefined): Promise<{ videos: DisplayVideo[]; cursor: number | undefined; hasMore: boolean }> {
    const data = await this.#post(`/v2/video/list/?fields=${fields.join(',')}`, { max_count: maxCount, ...(cursor !== undefined ? { cursor } : {}) });
    const next = Number(data.cursor);
    return { videos: videosOf(data), cursor: Number.isFinite(next) ? next : undefined, hasMore: data.has_more === true };
  }

  /** POST /v2/video/query/: those of `ids` (≤ 20) that are the creator's public videos. */
  async videoQuery(fields: readonly string[], ids: string[]): Promise<DisplayVideo[]> {
    return videosOf(await this.#post(`/v2/video/query/?fields=${fields.join(',')}`, { filters: { video_ids: ids } }));
  }

  /** GET /v2/user/info/ with these fields: the user object. */
  async userInfo(fields: readonly string[]): Promise<Record<string, unknown>> {
    const data = this.#dataOf(await this.#http.call({ url: `/v2/user/info/?fields=${fields.join(',')}` }));
    return (data as { user?: Record<string, unknown> }).user ?? {};
  }

  async creatorInfo(): Promise<CreatorInfo> {
    const data = await this.#post('/v2/post/publish/creator_info/query/', {});
    const options = Array.isArray(data.privacy_level_options) ? data.privacy_level_options.map(String) as PrivacyLevel[] : [];
    const max = Number(data.max_video_post_duration_sec);
    return {
      username: String(data.creator_username ?? ''),
      nickname: String(data.creator_nickname ?? ''),
      privacyLevelOptions: options,
      commentDisabled: data.comment_disabled === true,
      duetDisabled: data.duet_disabled === true,
      stitchDisabled: data.stitch_disabled === true,
      maxVideoPostDurationSec: Number.isFinite(max) && max > 0 ? max : undefined,
    };
  }

  /** Direct post (`/video/init/`) or inbox draft (`/inbox/video/init/`) of a FILE_UPLOAD video. */
  async initVideo(mode: 'direct' | 'inbox', body: Record<string, unknown>): Promise<UploadSession> {
    const path = mode === 'direct' ? '/v2/post/publish/video/init/' : '/v2/post/publish/inbox/video/init/';
    const data = await this.#post(path, body);
    const publishId = typeof data.publish_id === 'string' ? data.publish_id : '';
    const uploadUrl = typeof data.upload_url === 'string' ? data.upload_url : '';
    if (!publishId || !uploadUrl) throw new PublishError('retryable', `tiktok: ${path} answered without publish_id or upload_url`, undefined, 'server');
    return { publishId, uploadUrl };
  }

  /** A photo post (PULL_FROM_URL): TikTok starts downloading the photos at once. */
  async initPhoto(body: Record<string, unknown>): Promise<string> {
    const data = await this.#post('/v2/post/publish/content/init/', body);
    if (typeof data.publish_id !== 'string' || !data.publish_id) {
      throw new PublishError('unknown', 'tiktok: the photo post was accepted without its publish_id; check the creator\'s TikTok profile and inbox');
    }
    return data.publish_id;
  }

  /** PUT of bytes `first`..`last` of `total` to the upload URL (206 after a chunk, 201 after the last). */
  async putChunk(uploadUrl: string, body: Readable, range: { first: number; last: number; total: number }, contentType: string): Promise<void> {
    await this.#http.call({
      url: uploadUrl,
      method: 'PUT',
      headers: {
        'content-type': contentType,
        'content-length': String(range.last - range.first + 1),
        'content-range': `bytes ${range.first}-${range.last}/${range.total}`,
      },
      body,
    });
  }

  async status(publishId: string): Promise<PublishStatus> {
    // publicaly_available_post_id is list<int64>: JSON numbers of 19 digits, which JSON.parse rounds
    // (7663542984343883021 becomes 7663542984343883000). The answer is read again keeping their digits.
    const answer = await this.#postAnswer('/v2/post/publish/status/fetch/', { publish_id: publishId });
    const data = this.#dataOf({ ...answer, body: parseKeepingIntegers(answer.text) });
    const ids = data.publicaly_available_post_id;
    const uploaded = Number(data.uploaded_bytes);
    return {
      status: String(data.status ?? ''),
      failReason: typeof data.fail_reason === 'string' && data.fail_reason ? data.fail_reason : undefined,
      postIds: Array.isArray(ids) ? ids.map(String).filter(Boolean) : [],
      uploadedBytes: Number.isFinite(uploaded) ? uploaded : undefined,
    };
  }

  async #post(path: string, json: unknown): Promise<Record<string, unknown>> {
    return this.#dataOf(await this.#postAnswer(path, json));
  }

  #postAnswer(path: string, json: unknown): Promise<NetworkAnswer> {
    return this.#http.call({ url: path, method: 'POST', json, headers: { 'content-type': 'application/json; charset=UTF-8' } });
  }

  /** The envelope's `data`: a 2xx whose envelope is not `ok` is a refusal all the same. */
  #dataOf(answer: NetworkAnswer): Record<string, unknown> {
    const envelope = answer.body as Envelope | undefined;
    const code = envelope?.error?.code;
    if (code !== undefined && code !== 'ok') throw this.#http.failureOf({ ...answer, status: answer.status < 400 ? 400 : answer.status });
    return envelope?.data ?? {};
  }
}

/**
 * JSON.parse, but an integer a JS number cannot hold exactly stays its decimal digits (a string): the
 * reviver's `context.source` (Node 22+) is the number as the text wrote it. Anything not JSON is the
 * text itself, as the HTTP client gives it.
 */
function parseKeepingIntegers(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source ?? '') ? context!.source : value);
  } catch {
    return text;
  }
}

const videosOf = (data: Record<string, unknown>): DisplayVideo[] =>
  (Array.isArray(data.videos) ? data.videos : []).filter((v): v is DisplayVideo => typeof (v as DisplayVideo | null)?.id === 'string');

/** A token without the optional scope a call needs: refused for good, with what to do. */
function missingScope(answer: NetworkAnswer, reason: string, scope: string): Failure | undefined {
  const code = codeOf(answer);
  if (code !== 'scope_not_authorized' && code !== 'scope_permission_missed') return undefined;
  return { kind: 'permanent', code: 'forbidden', reason: `the account was connected without TikTok's ${scope} scope (${reason}); reconnect it granting ${scope}` };
}

/** `message (code) [log_id …]`: TikTok's support asks for the log id. */
function reasonOf(body: unknown, status: number): string | undefined {
  const error = (body as Envelope | undefined)?.error;
  if (!error?.code) return typeof body === 'string' && body ? `${body.slice(0, 200)} (HTTP ${status})` : undefined;
  const words = error.message ? `${error.message} (${error.code})` : error.code;
  return error.log_id ? `${words} [log_id ${error.log_id}]` : words;
}

const codeOf = (answer: NetworkAnswer) => (answer.body as Envelope | undefined)?.error?.code;

/** What TikTok's codes mean for the post; undefined leaves the HTTP status's default meaning. */
function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  const code = codeOf(answer);
  switch (code) {
    case 'access_token_invalid':
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return { kind: 'auth', code: 'auth', reason: `the access token was refused (${reason}); reconnect the account` };
    case 'rate_limit_exceeded':
      return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: RATE_LIMIT_WAIT_MS };
    case 'spam_risk_too_many_posts':
      return { kind: 'permanent', code: 'quota', reason: `the creator reached TikTok's daily cap on posts made through apps (${reason}); post again tomorrow` };
    case 'spam_risk_too_many_pending_share':
      // At most 5 inbox drafts pending in 24 hours (the Upload reference). A slot frees when the creator
      // finishes or deletes a draft in the app, or a day after it was sent: nothing Crier can see, so
      // not retried on a timer (and a retried photo init could not be told from a crash inside it).
      return { kind: 'permanent', code: 'quota', reason: `the creator has too many drafts waiting in their TikTok inbox (${reason}); they finish or delete some in the TikTok app, then post again` };
    case 'reached_active_user_cap':
      return { kind: 'permanent', code: 'quota', reason: `reached_active_user_cap: TikTok's 24-hour cap on distinct creators direct-posting through this app is reached (${reason}); try again later, or use postMode MEDIA_UPLOAD` };
    case 'unaudited_client_can_only_post_to_private_accounts':
      return { kind: 'permanent', code: 'forbidden', reason: `the app is not audited by TikTok, so it may post only to private accounts: make the account private, or have the app audited (${reason})` };
    case 'privacy_level_option_mismatch':
      return { kind: 'permanent', code: 'invalid', reason: `tiktok.privacyLevel is not one the creator may use now (${reason})` };
    case 'url_ownership_unverified':
      return { kind: 'permanent', code: 'forbidden', reason: `TikTok downloads photos only from a domain or URL prefix verified for the app: verify PUBLIC_BASE_URL's domain in the TikTok developer portal (${reason})` };
    case 'spam_risk_user_banned_from_posting':
      return { kind: 'permanent', code: 'forbidden', reason: `TikTok bars this creator from posting (${reason})` };
    case 'invalid_file_upload':
      return { kind: 'permanent', code: 'media_rejected', reason };
    case 'invalid_params':
    case 'invalid_param':
      return { kind: 'permanent', code: 'invalid', reason };
    default:
      return undefined;
  }
}
