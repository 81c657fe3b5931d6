// The Vimeo calls publishing makes (API 3.4, every call with the versioned Accept header), through the
// one network HTTP client (../http.ts): the member's upload quota, creating a video with the tus
// approach, its status, the member's newest videos, a video's comments; what engagement reads and
// writes (deleting a video, raw pages of videos, comments and replies, a video's or the member's
// figures; capabilities.ts, comments.ts); and the tus 1.0.0 calls on the
// video's upload link (HEAD for the offset, PATCH for the next bytes), which carry no bearer token: the
// link itself is the credential, on Vimeo's own upload host. Vimeo's errors are
// {error, link, developer_message, error_code}; every answer carries X-RateLimit-Limit/-Remaining/
// -Reset, the reset an ISO 8601 date (as observed) or epoch seconds.
import type { Readable } from 'node:stream';
import { PublishError } from '../../core/errors.ts';
import { NetworkHttp, retryAfterMs, type Failure, type NetworkAnswer } from '../http.ts';
import { VIMEO_ACCEPT } from './oauth.ts';

const TUS_VERSION = '1.0.0';
/** Vimeo's help center: a member over the limit is held back "for up to a minute". */
const RATE_LIMIT_WAIT_MS = 60_000;
/** 8000 invalid token, 8001 no token, 8002 no user behind the token, 8003 revoked credentials. */
const AUTH_CODES = new Set([8000, 8001, 8002, 8003]);
/** 4101 disk space reached, 4102 upload quota reached (api.yaml, POST /me/videos). */
const QUOTA_CODES = new Set([4101, 4102]);

export interface CreatedVideo {
  /** "/videos/<id>". */
  uri: string;
  uploadLink: string;
  link: string;
}

export interface VideoStatus {
  uri: string;
  link: string;
  upload: string | undefined;
  transcode: string | undefined;
  /** The legacy `status` (transcoding_error, quota_exceeded...): the only reason Vimeo gives. */
  status: string | undefined;
}

export interface ListedVideo {
  uri: string;
  name: string;
  createdTime: number;
  size: number | undefined;
  uploadLink: string | undefined;
}

export interface VimeoCommentItem {
  uri: string;
  text: string;
  userUri: string | undefined;
  createdOn: number;
}

export interface Page<T> {
  items: T[];
  hasNext: boolean;
}

export class VimeoClient {
  readonly #api: NetworkHttp;
  readonly #tus: NetworkHttp;

  constructor(apiUrl: string, accessToken: string) {
    this.#api = new NetworkHttp({
      network: 'vimeo',
      baseUrl: apiUrl,
      headers: () => ({ authorization: `bearer ${accessToken}`, accept: VIMEO_ACCEPT }),
      reasonOf,
      classify,
    });
    this.#tus = new NetworkHttp({ network: 'vimeo', baseUrl: apiUrl, headers: () => ({ 'tus-resumable': TUS_VERSION }), reasonOf, classify: classifyTus });
  }

  /** Bytes the member may still upload (upload_quota.space.free), with its reset date; undefined when Vimeo says none. */
  async uploadSpace(): Promise<{ free: number; resetDate: string | undefined } | undefined> {
    const { body } = await this.#api.call({ url: '/me?fields=upload_quota' });
    const quota = (body as { upload_quota?: { space?: { free?: number | null }; periodic?: { reset_date?: string | null } } })?.upload_quota;
    const free = quota?.space?.free;
    if (typeof free !== 'number') return undefined;
    return { free, resetDate: quota?.periodic?.reset_date ?? undefined };
  }

  /** POST /me/videos with the tus approach: the video and its upload link. */
  async createVideo(body: Record<string, unknown>): Promise<CreatedVideo> {
    const { body: video } = await this.#api.call({ url: '/me/videos', method: 'POST', json: body });
    const created = video as { uri?: string; link?: string; upload?: { upload_link?: string } };
    if (!created?.uri || !created.upload?.upload_link) {
      throw new PublishError('unknown', 'vimeo: the video was created but the answer did not name it or its upload link');
    }
    return { uri: created.uri, uploadLink: created.upload.upload_link, link: created.link ?? '' };
  }

  async videoStatus(uri: string): Promise<VideoStatus> {
    const { body } = await this.#api.call({ url: `${uri}?fields=uri,link,status,upload.status,transcode.status` });
    const video = body as { uri: string; link?: string; status?: string; upload?: { status?: string } | null; transcode?: { status?: string } | null };
    return { uri: video.uri, link: video.link ?? '', upload: video.upload?.status, transcode: video.transcode?.status, status: video.status };
  }

  /** The member's videos, newest first. */
  async myVideos(page: number, perPage: number): Promise<Page<ListedVideo>> {
    const query = new URLSearchParams({
      page: String(page), per_page: String(perPage), sort: 'date', direction: 'desc',
      fields: 'uri,name,created_time,upload.size,upload.upload_link',
    });
    const { body } = await this.#api.call({ url: `/me/videos?${query}` });
    const list = body as { data?: { uri: string; name?: string; created_time?: string; upload?: { size?: number; upload_link?: string } | null }[]; paging?: { next?: string | null } };
    const items = (list.data ?? []).map((v) => ({
      uri: v.uri, name: v.name ?? '', createdTime: Date.parse(v.created_time ?? ''), size: v.upload?.size, uploadLink: v.upload?.upload_link,
    }));
    return { items, hasNext: Boolean(list.paging?.next) };
  }

  /** POST /videos/{id}/comments (or …/comments/{parentId}/replies): the new comment's uri. */
  async comment(videoUri: string, text: string, parentId?: string): Promise<string> {
    const url = parentId === undefined ? `${videoUri}/comments` : `${videoUri}/comments/${parentId}/replies`;
    const { body } = await this.#api.call({ url, method: 'POST', json: { text } });
    const uri = (body as { uri?: string })?.uri;
    if (!uri) throw new PublishError('unknown', `vimeo: the comment on ${videoUri} was answered without its uri`);
    return uri;
  }

  /** A video's comments, newest first. */
  async comments(videoUri: string, page: number, perPage: number): Promise<Page<VimeoCommentItem>> {
    const query = new URLSearchParams({ page: String(page), per_page: String(perPage), direction: 'desc' });
    const { body } = await this.#api.call({ url: `${videoUri}/comments?${query}` });
    const list = body as { data?: { uri: string; text?: string; created_on?: string; user?: { uri?: string } | null }[]; paging?: { next?: string | null } };
    const items = (list.data ?? []).map((c) => ({ uri: c.uri, text: c.text ?? '', userUri: c.user?.uri, createdOn: Date.parse(c.created_on ?? '') }));
    return { items, hasNext: Boolean(list.paging?.next) };
  }

  /** DELETE /videos/{id}: 'absent' when Vimeo no longer has it (404). */
  async deleteVideo(videoUri: string): Promise<'removed' | 'absent'> {
    try {
      await this.#api.call({ url: videoUri, method: 'DELETE' });
      return 'removed';
    } catch (error) {
      if (error instanceof PublishError && error.code === 'not_found') return 'absent';
      throw error;
    }
  }

  /**
   * One page of a list as Vimeo returns it (`data` untouched): `path` is /me/videos,
   * /videos/{id}/comments or …/replies; `query` adds sort, direction, fields.
   */
  async rawPage(path: string, page: number, perPage: number, query: Record<string, string> = {}): Promise<{ data: unknown[]; hasNext: boolean }> {
    const params = new URLSearchParams({ page: String(page), per_page: String(perPage), ...query });
    const { body } = await this.#api.call({ url: `${path}?${params}` });
    const list = body as { data?: unknown[]; paging?: { next?: string | null } };
    return { data: Array.isArray(list?.data) ? list.data : [], hasNext: Boolean(list?.paging?.next) };
  }

  /** GET of one object (a video, /me) with only `fields`. */
  async object(path: string, fields: string[]): Promise<Record<string, unknown>> {
    const { body } = await this.#api.call({ url: `${path}?fields=${fields.join(',')}` });
    return body && typeof body === 'object' ? body as Record<string, unknown> : {};
  }

  /** tus HEAD: the bytes Vimeo holds (Upload-Offset) of the upload's length (Upload-Length). */
  async uploadOffset(uploadLink: string): Promise<{ offset: number; length: number | undefined }> {
    const answer = await this.#tus.call({ url: uploadLink, method: 'HEAD' });
    const offset = Number(answer.header('upload-offset'));
    if (!Number.isSafeInteger(offset) || offset < 0) throw new PublishError('retryable', 'vimeo: the upload link answered HEAD without a valid Upload-Offset', undefined, 'server');
    const length = Number(answer.header('upload-length'));
    return { offset, length: Number.isSafeInteger(length) ? length : undefined };
  }

  /** tus PATCH of `length` bytes at `offset`: the offset Vimeo holds after them. */
  async sendBytes(uploadLink: string, offset: number, bytes: Readable, length: number): Promise<number> {
    const answer = await this.#tus.call({
      url: uploadLink,
      method: 'PATCH',
      headers: { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(length) },
      body: bytes,
    });
    const next = Number(answer.header('upload-offset'));
    // Without the header, what was sent is what Vimeo holds (a 204 means the whole body was taken).
    return Number.isSafeInteger(next) ? next : offset + length;
  }
}

/** The last segment of a Vimeo uri ("/videos/123/comments/456" → "456"). */
export const idOf = (uri: string) => uri.split('/').filter(Boolean).at(-1) ?? uri;

function errorCodeOf(body: unknown): number | undefined {
  const code = (body as { error_code?: unknown } | undefined)?.error_code;
  return typeof code === 'number' ? code : undefined;
}

/** "Your upload quota has been reached. (4102: The video is …)": the user's words, then the developer's. */
function reasonOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const { error, developer_message: developer, error_code: code } = body as { error?: string; developer_message?: string; error_code?: number };
  if (!error && !developer) return undefined;
  const detail = [code, developer && developer !== error ? developer : undefined].filter((part) => part !== undefined).join(': ');
  return `${error ?? developer}${detail ? ` (${detail})` : ''}`;
}

function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  const code = errorCodeOf(answer.body);
  if (answer.status === 429) {
    return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: rateLimitWaitMs(answer) };
  }
  if (code !== undefined && QUOTA_CODES.has(code)) return { kind: 'permanent', code: 'quota', reason: `the account's upload quota is spent (${reason})` };
  if (code !== undefined && AUTH_CODES.has(code)) return { kind: 'auth', code: 'auth', reason: `the access token was refused (${reason}); reconnect the account` };
  return undefined;
}

/** When the rate limit frees: Retry-After, else X-RateLimit-Reset (an ISO date or epoch seconds), else a minute. */
export function rateLimitWaitMs(answer: Pick<NetworkAnswer, 'header'>, now = Date.now()): number {
  const reset = answer.header('x-ratelimit-reset');
  const at = reset !== undefined && !/^\d+$/.test(reset) ? Date.parse(reset) : NaN;
  if (Number.isFinite(at)) return Math.max(0, at - now);
  return retryAfterMs(answer, now) ?? RATE_LIMIT_WAIT_MS;
}

/** The tus endpoint's own refusals: an offset that moved (another sender) is retried after a HEAD; a gone upload is final. */
function classifyTus(answer: NetworkAnswer, reason: string): Failure | undefined {
  if (answer.status === 409) return { kind: 'retryable', code: 'server', reason: `the upload's offset moved (${reason}); resuming from the offset Vimeo reports`, retryAfterMs: 0 };
  if (answer.status === 404 || answer.status === 410) {
    return { kind: 'permanent', code: 'not_found', reason: `the video's upload link is no longer valid (${reason}); the upload cannot be resumed` };
  }
  return classify(answer, reason);
}
