// A small typed client for the X API v2 calls Crier makes. Errors come back classified as
// PublishError, with the network's own reason first in the message.
import { PublishError } from '../../publishing/errors.ts';
import { xSender, type XAnswer } from './transport.ts';

export interface XTweet {
  id: string;
  text: string;
  in_reply_to_tweet_id?: string;
  referenced_tweets?: { type: string; id: string }[];
}

export interface XTimelinePage {
  tweets: XTweet[];
  /** Present when there are older posts in the range: the next page's pagination_token. */
  next: string | undefined;
}

export class XClient {
  readonly baseUrl: string;
  readonly #token: string;

  constructor(baseUrl: string, accessToken: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#token = accessToken;
  }

  async createTweet(body: { text: string; media?: { media_ids: string[] }; reply?: { in_reply_to_tweet_id: string } }): Promise<{ id: string; text: string }> {
    const res = await this.request('POST', '/2/tweets', body);
    return (res as { data: { id: string; text: string } }).data;
  }

  /**
   * One page of the user's posts (replies included) created at or after `since`, newest first, the
   * largest page X serves. `since` is sent in whole seconds, rounded down, as X's start_time takes it.
   */
  async timelinePage(userId: string, since: Date, paginationToken?: string): Promise<XTimelinePage> {
    const query = new URLSearchParams({
      max_results: '100',
      start_time: `${since.toISOString().slice(0, 19)}Z`,
      'tweet.fields': 'referenced_tweets',
      ...(paginationToken ? { pagination_token: paginationToken } : {}),
    });
    const res = (await this.request('GET', `/2/users/${encodeURIComponent(userId)}/tweets?${query}`)) as { data?: XTweet[]; meta?: { next_token?: string } };
    return { tweets: res.data ?? [], next: res.meta?.next_token };
  }

  async uploadImage(bytes: Buffer, mediaType: string): Promise<string> {
    const form = new FormData();
    form.set('media_category', 'tweet_image');
    form.set('media', new Blob([new Uint8Array(bytes)], { type: mediaType }));
    const res = await this.request('POST', '/2/media/upload', form);
    return (res as { data: { id: string } }).data.id;
  }

  /** Chunked upload (initialize, append, finalize), then waits until processing succeeded. */
  async uploadVideo(bytes: Buffer, mediaType: string, sleep = defaultSleep): Promise<string> {
    const init = await this.request('POST', '/2/media/upload/initialize', { media_type: mediaType, media_category: 'tweet_video', total_bytes: bytes.length });
    const id = (init as { data: { id: string } }).data.id;
    const chunk = 4 * 1024 * 1024;
    for (let offset = 0, index = 0; offset < bytes.length; offset += chunk, index++) {
      const form = new FormData();
      form.set('segment_index', String(index));
      form.set('media', new Blob([new Uint8Array(bytes.subarray(offset, offset + chunk))], { type: 'application/octet-stream' }));
      await this.request('POST', `/2/media/upload/${id}/append`, form);
    }
    let info = ((await this.request('POST', `/2/media/upload/${id}/finalize`)) as { data: { processing_info?: ProcessingInfo } }).data.processing_info;
    for (let polls = 0; info && info.state !== 'succeeded'; polls++) {
      if (info.state === 'failed' || polls > 120) {
        throw new PublishError('permanent', `x: video processing failed${info.error?.message ? `: ${info.error.message}` : ''}`);
      }
      await sleep((info.check_after_secs ?? 1) * 1000);
      info = ((await this.request('GET', `/2/media/upload?command=STATUS&media_id=${id}`)) as { data: { processing_info?: ProcessingInfo } }).data.processing_info;
    }
    return id;
  }

  async request(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}` };
    if (body instanceof FormData) return answered(await this.#upload(method, path, headers, body));
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const send = await xSender();
    let answer: XAnswer;
    try {
      answer = await send(this.baseUrl + path, method, headers, payload);
    } catch (error) {
      throw unreachable(error);
    }
    return answered(answer);
  }

  /**
   * Multipart uploads keep fetch, which encodes FormData as the standard says: they are few, and
   * their bytes, not the client, are what they cost.
   */
  async #upload(method: string, path: string, headers: Record<string, string>, form: FormData): Promise<XAnswer> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, { method, headers, body: form, signal: AbortSignal.timeout(60_000) });
    } catch (error) {
      throw unreachable(error);
    }
    return { status: res.status, header: (name) => res.headers.get(name) ?? undefined, text: await res.text() };
  }
}

function unreachable(error: unknown): PublishError {
  return new PublishError('retryable', `x: could not reach the API (${(error as Error).message})`);
}

/** X's answer: its JSON on a 2xx, else the error it stands for. */
function answered(answer: XAnswer): unknown {
  const json = answer.text ? safeJson(answer.text) : undefined;
  if (answer.status >= 200 && answer.status < 300) return json;
  throw classify(answer, json);
}

interface ProcessingInfo {
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  check_after_secs?: number;
  error?: { message?: string };
}

const defaultSleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * X's error bodies: the invalid-request envelope `{errors: [{parameters, message}], title, detail}`
 * (its detail only says "One or more parameters to your request was invalid."), a problem
 * `{title, detail}`, or the legacy `{errors: [{message}]}`. Field errors come first: which parameter,
 * and why.
 */
function reasonOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { detail?: string; title?: string; errors?: { message?: string; detail?: string; parameters?: Record<string, unknown> }[] };
    const fieldErrors = (b.errors ?? []).filter((e) => e.message && e.parameters).map(fieldError);
    if (fieldErrors.length) return fieldErrors.join('; ');
    const first = b.errors?.[0];
    const reason = b.detail ?? first?.message ?? first?.detail ?? b.title;
    if (reason) return reason;
  }
  return `HTTP ${status}`;
}

/** `media.media_ids: Your media IDs are invalid.`; the parameter's value is left out (it may be the whole text). */
function fieldError(error: { message?: string; parameters?: Record<string, unknown> }): string {
  const names = Object.keys(error.parameters ?? {});
  return names.length ? `${names.join(', ')}: ${error.message}` : error.message!;
}

export function isDuplicateContent(error: unknown): boolean {
  return error instanceof PublishError && /duplicate content/i.test(error.message);
}

function classify(res: XAnswer, body: unknown): PublishError {
  const reason = reasonOf(res.status, body);
  if (res.status === 401) return new PublishError('auth', `x: the access token was refused (${reason}); reconnect the account`);
  if (res.status === 429) {
    const reset = Number(res.header('x-rate-limit-reset'));
    const waitMs = Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 60_000;
    return new PublishError('retryable', `x: rate limited (${reason})`, waitMs);
  }
  if (res.status >= 500) return new PublishError('retryable', `x: server error ${res.status} (${reason})`);
  return new PublishError('permanent', `x: ${reason}`);
}
