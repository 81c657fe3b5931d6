// A small typed client for the X API v2 calls Crier makes, through the one network HTTP client
// (../http.ts): errors come back classified as PublishError, with the network's own reason.
import { PublishError } from '../../core/errors.ts';
import { NetworkHttp, type Failure, type NetworkAnswer } from '../http.ts';
import { fieldsParameter, inTweetVocabulary, otherVocabulary, refusesVocabulary, remember, vocabularyOf } from './vocabulary.ts';

export interface XTweet {
  id: string;
  text: string;
  in_reply_to_tweet_id?: string;
  referenced_tweets?: { type: string; id: string }[];
  /** The post's media (asked for with tweet.fields=attachments): how many it has tells ours apart. */
  attachments?: { media_keys?: string[] };
}

export interface XTimelinePage {
  tweets: XTweet[];
  /** Present when there are older posts in the range: the next page's pagination_token. */
  next: string | undefined;
}

export class XClient {
  readonly baseUrl: string;
  readonly #token: string;

  readonly #http: NetworkHttp;

  constructor(baseUrl: string, accessToken: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#token = accessToken;
    this.#http = new NetworkHttp({
      network: 'x',
      baseUrl: this.baseUrl,
      headers: () => ({ authorization: `Bearer ${accessToken}` }),
      reasonOf: (body, status) => reasonOf(status, body),
      classify,
    });
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
    const query = {
      max_results: '100',
      start_time: `${since.toISOString().slice(0, 19)}Z`,
      ...(paginationToken ? { pagination_token: paginationToken } : {}),
    };
    const res = (await this.readPosts(`/2/users/${encodeURIComponent(userId)}/tweets`, query, ['referenced_tweets', 'attachments'])) as { data?: XTweet[]; meta?: { next_token?: string } };
    return { tweets: res.data ?? [], next: res.meta?.next_token };
  }

  /**
   * A GET of posts with `fields` (named in the tweet vocabulary: vocabulary.ts), in the vocabulary
   * this API last took; refused as unknown, it is asked once more in the other one, remembered when
   * taken. The answer's posts (`data`) come back in the tweet vocabulary.
   */
  async readPosts(path: string, query: Record<string, string>, fields: string[]): Promise<unknown> {
    const url = (vocabulary: ReturnType<typeof vocabularyOf>) => `${path}?${new URLSearchParams({ ...query, ...fieldsParameter(vocabulary, fields) })}`;
    const tried = vocabularyOf(this.baseUrl);
    let answer = await this.#http.answer({ url: url(tried) });
    if (refusesVocabulary(answer.status, answer.body, tried)) {
      const other = otherVocabulary(tried);
      answer = await this.#http.answer({ url: url(other) });
      if (answer.status >= 200 && answer.status < 300) remember(this.baseUrl, other);
    }
    const body = this.#answered(answer) as { data?: unknown };
    if (!body || typeof body !== 'object' || !body.data || typeof body.data !== 'object') return body;
    return { ...body, data: Array.isArray(body.data) ? body.data.map(inTweetVocabulary) : inTweetVocabulary(body.data) };
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
    if (body instanceof FormData) return this.#answered(await this.#upload(method, path, body));
    return (await this.#http.call({ url: path, method, ...(body === undefined ? {} : { json: body }) })).body;
  }

  /**
   * Multipart uploads keep fetch, which encodes FormData as the standard says: they are few, and
   * their bytes, not the client, are what they cost. Their answers are judged like every other.
   */
  async #upload(method: string, path: string, form: FormData): Promise<NetworkAnswer> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, { method, headers: { authorization: `Bearer ${this.#token}` }, body: form, signal: AbortSignal.timeout(60_000) });
    } catch (error) {
      throw new PublishError('retryable', `x: could not reach the API (${(error as Error).message})`, undefined, 'unreachable');
    }
    const text = await res.text();
    return { status: res.status, header: (name) => res.headers.get(name) ?? undefined, text, body: safeJson(text) };
  }

  #answered(answer: NetworkAnswer): unknown {
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw this.#http.failureOf(answer);
  }
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

/** X refused the text as one already on the account ("You are not allowed to create a Tweet with duplicate content."). */
export function isDuplicateContent(error: unknown): boolean {
  return error instanceof PublishError && error.code === 'duplicate';
}

/** What X's answers mean beyond the default (../http.ts): a refusal as duplicate content. */
function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  if (answer.status === 403 && /duplicate content/i.test(reason)) return { kind: 'permanent', code: 'duplicate', reason };
  return undefined;
}
