// The Pinterest API v5 calls publishing and the boards listing make, through the one network HTTP
// client (../http.ts). Pinterest's errors are `{code, message}` (pinterest/api-description v5
// `Pinterest.Lib.Error`): 401 code 2 "Authentication failed.", 403 code 29 "You are not permitted to
// access that resource.", 429 code 8 for a rate limit; a refused media source is a 400. The video
// upload goes to the upload URL Pinterest hands out (an S3 bucket, answering in XML), without the
// bearer token: S3 takes one authentication, the signed form fields.
import type { StreamedForm } from '../multipart.ts';
import { NetworkHttp, type Failure, type NetworkAnswer } from '../http.ts';

export type MediaStatus = 'registered' | 'processing' | 'succeeded' | 'failed';

/** POST /v5/media's answer: where and how to upload the file. */
export interface RegisteredMedia {
  mediaId: string;
  uploadUrl: string;
  uploadParameters: Record<string, string>;
}

export interface PinterestPin {
  id: string;
  board_id?: string;
  title?: string | null;
  description?: string | null;
  link?: string | null;
  created_at?: string;
  /** Set on a Pin saved from another one (a repin). */
  parent_pin_id?: string | null;
  media?: { media_type?: string; items?: unknown[] };
}

/** One group of an analytics answer (`all` when not split): figures over the range, and lifetime ones. */
export interface AnalyticsGroup {
  summary_metrics?: Record<string, number>;
  lifetime_metrics?: Record<string, number>;
}

/** GET /v5/user_account: the profile counts Crier reads (each nullable). */
export interface UserAccount {
  id: string;
  username?: string;
  follower_count?: number | null;
  following_count?: number | null;
  pin_count?: number | null;
  board_count?: number | null;
  monthly_views?: number | null;
}

export interface PinterestBoard {
  id: string;
  name: string;
  description?: string | null;
  privacy?: string;
}

export interface Page<T> {
  items: T[];
  bookmark: string | null;
}

export const pinUrl = (id: string) => `https://www.pinterest.com/pin/${id}/`;

export class PinterestClient {
  readonly #http: NetworkHttp;
  readonly #upload: NetworkHttp;

  constructor(apiUrl: string, accessToken: string) {
    this.#http = new NetworkHttp({
      network: 'pinterest',
      baseUrl: `${apiUrl}/v5`,
      headers: () => ({ authorization: `Bearer ${accessToken}` }),
      reasonOf,
      classify,
    });
    this.#upload = new NetworkHttp({ network: 'pinterest', baseUrl: apiUrl, reasonOf: uploadReasonOf, classify: classifyUpload });
  }

  /** POST /v5/pins: the pin created (201). */
  async createPin(body: Record<string, unknown>): Promise<PinterestPin> {
    return (await this.#http.call({ url: '/pins', method: 'POST', json: body })).body as PinterestPin;
  }

  /** POST /v5/media {media_type: video}: a media id, and the upload URL with its form fields. */
  async registerVideo(): Promise<RegisteredMedia> {
    const { body } = await this.#http.call({ url: '/media', method: 'POST', json: { media_type: 'video' } });
    const media = body as { media_id: string; upload_url: string; upload_parameters?: Record<string, string> };
    return { mediaId: media.media_id, uploadUrl: media.upload_url, uploadParameters: media.upload_parameters ?? {} };
  }

  /** GET /v5/media/{media_id}: where Pinterest is with the upload. */
  async mediaStatus(mediaId: string): Promise<MediaStatus> {
    const { body } = await this.#http.call({ url: `/media/${encodeURIComponent(mediaId)}` });
    return (body as { status: MediaStatus }).status;
  }

  /** The multipart form POSTed to the upload URL, streamed: `length` is its exact size in bytes. */
  async uploadForm(uploadUrl: string, form: StreamedForm): Promise<void> {
    await this.#upload.call({
      url: uploadUrl,
      method: 'POST',
      headers: { 'content-type': form.contentType, 'content-length': String(form.length) },
      body: form.body,
    });
  }

  /** GET /v5/boards/{board_id}/pins, one page. */
  async boardPins(boardId: string, bookmark: string | undefined, pageSize: number): Promise<Page<PinterestPin>> {
    return this.#page(`/boards/${encodeURIComponent(boardId)}/pins`, bookmark, pageSize);
  }

  /** GET /v5/boards: the account's boards, one page. */
  async boards(bookmark: string | undefined, pageSize: number): Promise<Page<PinterestBoard>> {
    return this.#page('/boards', bookmark, pageSize);
  }

  /** GET /v5/pins: the Pins the account owns, one page. */
  async pins(bookmark: string | undefined, pageSize: number): Promise<Page<PinterestPin>> {
    return this.#page('/pins', bookmark, pageSize);
  }

  /** GET /v5/pins/{pin_id}. */
  async pin(pinId: string): Promise<PinterestPin> {
    return (await this.#http.call({ url: `/pins/${encodeURIComponent(pinId)}` })).body as PinterestPin;
  }

  /** DELETE /v5/pins/{pin_id} (204). */
  async deletePin(pinId: string): Promise<void> {
    await this.#http.call({ url: `/pins/${encodeURIComponent(pinId)}`, method: 'DELETE' });
  }

  /** GET /v5/pins/{pin_id}/analytics, not split: the `all` group. */
  async pinAnalytics(pinId: string, query: Record<string, string>): Promise<AnalyticsGroup> {
    const { body } = await this.#http.call({ url: `/pins/${encodeURIComponent(pinId)}/analytics?${new URLSearchParams(query)}` });
    return groupOf(body);
  }

  /** GET /v5/user_account. */
  async userAccount(): Promise<UserAccount> {
    return (await this.#http.call({ url: '/user_account' })).body as UserAccount;
  }

  /** GET /v5/user_account/analytics, not split: the `all` group. */
  async accountAnalytics(query: Record<string, string>): Promise<AnalyticsGroup> {
    const { body } = await this.#http.call({ url: `/user_account/analytics?${new URLSearchParams(query)}` });
    return groupOf(body);
  }

  async #page<T>(path: string, bookmark: string | undefined, pageSize: number): Promise<Page<T>> {
    const query = new URLSearchParams({ page_size: String(pageSize), ...(bookmark ? { bookmark } : {}) });
    const { body } = await this.#http.call({ url: `${path}?${query}` });
    const page = body as { items?: T[]; bookmark?: string | null };
    return { items: page.items ?? [], bookmark: page.bookmark || null };
  }
}

/** An unsplit answer is `{all: {...}}` (pinterest-python-sdk's Analytics model); any one group otherwise. */
function groupOf(body: unknown): AnalyticsGroup {
  const groups = (body ?? {}) as Record<string, AnalyticsGroup>;
  return groups.all ?? Object.values(groups)[0] ?? {};
}

function reasonOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? body : undefined;
  const { code, message } = body as { code?: number; message?: string };
  if (message && code !== undefined) return `${message} (code ${code})`;
  return message;
}

/** A 400 about the pin's image or video (Pinterest could not fetch or read it) is the media's fault. */
const MEDIA_WORDS = /\b(image|video|media|cover)\b/i;

/** Pinterest's 403 code 29 to an app with Trial access creating a pin on api.pinterest.com. */
const TRIAL_ACCESS = /Trial access/i;

function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  if (answer.status === 400 && MEDIA_WORDS.test(reason)) return { kind: 'permanent', code: 'media_rejected', reason };
  if (answer.status === 403 && TRIAL_ACCESS.test(reason)) {
    const hint = 'an app with Trial access pins to Pinterest\'s sandbox (its pins visible only to the account): set CRIER_PINTEREST_API_URL=https://api-sandbox.pinterest.com, or get Standard access for the app';
    return { kind: 'permanent', code: 'forbidden', reason: `${reason}; ${hint}` };
  }
  return undefined;
}

/** S3's error document: `<Error><Code>AccessDenied</Code><Message>…</Message></Error>`. */
function uploadReasonOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  if (!code && !message) return undefined;
  return `the video upload was refused: ${message ?? ''}${code ? ` (${code})` : ''}`.trim();
}

/**
 * S3 refusing the form (an expired policy, a field missing) is no reason to disconnect the account or
 * to give up: the adapter registers the video again (uploads.ts). 5xx and throttling stay retryable.
 */
function classifyUpload(answer: NetworkAnswer, reason: string): Failure | undefined {
  if (answer.status === 400 || answer.status === 403) return { kind: 'permanent', code: 'media_rejected', reason };
  if (answer.status === 503) return { kind: 'retryable', code: 'rate_limited', reason: `the upload was throttled (${reason})`, retryAfterMs: 5_000 };
  return undefined;
}
