// The YouTube Data API v3 calls publishing makes, through the one network HTTP client (../http.ts):
// the resumable upload (session, chunks, status query — 308 answers are not failures, so those go
// through `exchange` and only real refusals are classified), videos.list for processing,
// thumbnails.set, and commentThreads; and what engagement reads and writes (videos.delete, channels,
// playlistItems, commentThreads and comments lists, comments.insert, statistics: capabilities.ts,
// comments.ts). Google's errors are {error:{code, message, errors:[{reason}]}}.
import type { Readable } from 'node:stream';
import { PublishError } from '../../core/errors.ts';
import { exchange, NetworkHttp, type Failure, type NetworkAnswer } from '../http.ts';
import { pacificDay } from './pool.ts';

const UPLOAD_PATH = '/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status';

export interface VideoMetadata {
  snippet: Record<string, unknown>;
  status: Record<string, unknown>;
}

/** Where a session stands: complete (the video's id), gone (expired: start again), or bytes received. */
export type SessionState = { videoId: string } | { expired: true } | { received: number };

export interface VideoStatus {
  uploadStatus: string;
  failureReason?: string;
  rejectionReason?: string;
  privacyStatus?: string;
}

/** One page of a list: its items untouched, and Google's nextPageToken. */
export interface ListPage {
  items: Record<string, unknown>[];
  next: string | undefined;
}

export interface CommentThread {
  threadId: string;
  commentId: string;
  authorChannelId: string;
  text: string;
  publishedAt: number;
}

export class YoutubeClient {
  readonly #http: NetworkHttp;
  readonly #token: string;
  #units = 0;

  /** Quota units the engagement calls of this client cost the project so far (list 1, delete and inserts 50). */
  get unitsSpent(): number {
    return this.#units;
  }

  constructor(apiUrl: string, accessToken: string) {
    this.#token = accessToken;
    this.#http = new NetworkHttp({ network: 'youtube', baseUrl: apiUrl, headers: () => ({ authorization: `Bearer ${accessToken}` }), reasonOf, classify });
  }

  /** videos.insert, resumable: the session URI from `Location`. */
  async startUpload(metadata: VideoMetadata, size: number, contentType: string): Promise<string> {
    const answer = await this.#http.call({
      url: UPLOAD_PATH,
      method: 'POST',
      headers: { 'x-upload-content-length': String(size), 'x-upload-content-type': contentType },
      json: metadata,
    });
    const location = answer.header('location');
    if (!location) throw new PublishError('retryable', 'youtube: the upload session was answered without a Location', undefined, 'server');
    return location;
  }

  /** PUT of bytes `start`..`end` of `total` to the session. */
  async putChunk(session: string, bytes: Readable, start: number, end: number, total: number): Promise<SessionState> {
    return this.#session(session, { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${total}` }, bytes);
  }

  /** What the session has (`Content-Range: bytes *` + `/TOTAL`): after a crash, where to go on from. */
  async querySession(session: string, total: number): Promise<SessionState> {
    return this.#session(session, { 'content-length': '0', 'content-range': `bytes */${total}` }, undefined);
  }

  async #session(session: string, headers: Record<string, string>, body: Readable | undefined): Promise<SessionState> {
    let answer: NetworkAnswer;
    try {
      answer = await exchange(session, { method: 'PUT', headers: { authorization: `Bearer ${this.#token}`, ...headers }, body });
    } catch (error) {
      throw new PublishError('retryable', `youtube: could not reach the upload session (${(error as Error).message})`, undefined, 'unreachable');
    }
    if (answer.status === 308) return { received: receivedOf(answer.header('range')) };
    if (answer.status === 200 || answer.status === 201) {
      const id = (answer.body as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string' || !id) throw new PublishError('retryable', 'youtube: the upload completed without a video id', undefined, 'server');
      return { videoId: id };
    }
    // Google forgets a session after about a week, or once it failed: a new one is needed.
    if (answer.status === 404 || answer.status === 410) return { expired: true };
    throw this.#http.failureOf(answer);
  }

  async videoStatus(videoId: string): Promise<VideoStatus | undefined> {
    const { body } = await this.#http.call({ url: `/youtube/v3/videos?part=processingDetails,status&id=${encodeURIComponent(videoId)}` });
    const item = (body as { items?: { status?: VideoStatus }[] }).items?.[0];
    return item?.status;
  }

  /**
   * thumbnails.set as a simple media upload: the raw image, `uploadType=media` as every Google client
   * library sends it on an /upload/ path (the discovery document's `simple` protocol).
   */
  async setThumbnail(videoId: string, image: Readable, size: number, contentType: string): Promise<void> {
    await this.#http.call({
      url: `/upload/youtube/v3/thumbnails/set?uploadType=media&videoId=${encodeURIComponent(videoId)}`,
      method: 'POST',
      headers: { 'content-type': contentType, 'content-length': String(size) },
      body: image,
    });
  }

  /** commentThreads.insert: a top-level comment on the video. */
  async comment(videoId: string, text: string): Promise<CommentThread> {
    this.#units += 50;
    const { body } = await this.#http.call({
      url: '/youtube/v3/commentThreads?part=snippet',
      method: 'POST',
      json: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: text } } } },
    });
    return threadOf(body);
  }

  /** videos.delete: 'absent' when YouTube has no such video (404 videoNotFound). */
  async deleteVideo(videoId: string): Promise<'removed' | 'absent'> {
    this.#units += 50;
    try {
      await this.#http.call({ url: `/youtube/v3/videos?id=${encodeURIComponent(videoId)}`, method: 'DELETE' });
      return 'removed';
    } catch (error) {
      if (error instanceof PublishError && error.code === 'not_found') return 'absent';
      throw error;
    }
  }

  /** GET of a list resource (`/youtube/v3/<path>?…`) as YouTube answers it. */
  async list(path: string, query: Record<string, string | undefined>): Promise<ListPage> {
    this.#units += 1;
    const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
    const { body } = await this.#http.call({ url: `/youtube/v3/${path}?${params}` });
    const page = (body ?? {}) as { items?: unknown; nextPageToken?: unknown };
    return { items: Array.isArray(page.items) ? page.items as Record<string, unknown>[] : [], next: typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined };
  }

  /** comments.insert: a reply to top-level comment `parentId`; the new comment's id. */
  async reply(parentId: string, text: string): Promise<string> {
    this.#units += 50;
    const { body } = await this.#http.call({ url: '/youtube/v3/comments?part=snippet', method: 'POST', json: { snippet: { parentId, textOriginal: text } } });
    const id = (body as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || !id) throw new PublishError('unknown', 'youtube: the reply was answered without its id');
    return id;
  }

  /** One page of the video's comment threads, newest first. */
  async comments(videoId: string, pageToken: string | undefined): Promise<{ threads: CommentThread[]; next: string | undefined }> {
    this.#units += 1;
    const query = new URLSearchParams({ part: 'snippet', videoId, maxResults: '100', order: 'time', textFormat: 'plainText', ...(pageToken ? { pageToken } : {}) });
    const { body } = await this.#http.call({ url: `/youtube/v3/commentThreads?${query}` });
    const page = body as { items?: unknown[]; nextPageToken?: string };
    return { threads: (page.items ?? []).map(threadOf), next: page.nextPageToken };
  }
}

function threadOf(item: unknown): CommentThread {
  const thread = item as { id: string; snippet?: { topLevelComment?: { id?: string; snippet?: { textOriginal?: string; authorChannelId?: { value?: string }; publishedAt?: string } } } };
  const top = thread.snippet?.topLevelComment;
  return {
    threadId: thread.id,
    commentId: top?.id ?? thread.id,
    authorChannelId: top?.snippet?.authorChannelId?.value ?? '',
    text: top?.snippet?.textOriginal ?? '',
    publishedAt: Date.parse(top?.snippet?.publishedAt ?? '') || 0,
  };
}

/** `Range: bytes=0-N` → N + 1; no header: nothing arrived yet. */
function receivedOf(range: string | undefined): number {
  const match = /bytes=0-(\d+)/.exec(range ?? '');
  return match ? Number(match[1]) + 1 : 0;
}

/** Google's reason codes of an error body. */
export function reasonsOf(body: unknown): string[] {
  const errors = (body as { error?: { errors?: { reason?: string }[] } } | undefined)?.error?.errors;
  return Array.isArray(errors) ? errors.map((e) => String(e?.reason ?? '')).filter(Boolean) : [];
}

function reasonOf(body: unknown): string | undefined {
  const error = (body as { error?: { message?: string } } | undefined)?.error;
  if (!error || typeof error !== 'object') return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
  // quotaExceeded's message carries a link in HTML.
  const message = typeof error.message === 'string' ? error.message.replace(/<[^>]*>/g, '') : undefined;
  const reasons = reasonsOf(body);
  return message && reasons.length ? `${message} (${reasons.join(', ')})` : message ?? reasons.join(', ');
}

/** A bucket of the project's daily quota is spent (videos.insert's own, or the units of any other call). */
export const PROJECT_QUOTA = new Set(['quotaExceeded', 'dailyLimitExceeded']);

/**
 * Google refused a call because the project's daily quota is spent (classify below: retryable). The
 * pool's own denial that quotes such a refusal (permanent, pool.ts) is not one: its bucket is marked.
 */
export function isProjectQuota(error: unknown): boolean {
  return error instanceof PublishError && error.kind === 'retryable' && error.code === 'quota' && [...PROJECT_QUOTA].some((reason) => error.message.includes(reason));
}

const RATE_LIMITS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  const reasons = reasonsOf(answer.body);
  if (reasons.some((r) => PROJECT_QUOTA.has(r))) return { kind: 'retryable', code: 'quota', reason: `the app's daily YouTube quota is spent (${reason})`, retryAfterMs: untilPacificMidnight() };
  if (reasons.some((r) => RATE_LIMITS.has(r))) return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: 60_000 };
  if (reasons.includes('uploadLimitExceeded')) {
    // The channel's own cap on uploads in 24 hours, the same as on the website.
    return { kind: 'retryable', code: 'quota', reason: `the channel reached YouTube's upload limit (${reason}); trying again in 24 hours`, retryAfterMs: 24 * 3600_000 };
  }
  return undefined;
}

/** Milliseconds until the next midnight in America/Los_Angeles (YouTube's quota day). */
const untilPacificMidnight = (now = new Date()) => Math.max(60_000, pacificDay(now).end.getTime() - now.getTime());
