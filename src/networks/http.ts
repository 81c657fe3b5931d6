// The one HTTP client every network adapter calls its network with, and OAuth flows' token and
// profile calls travel on (oauthCall): one keep-alive pool per process (undici, loaded with the first
// call), a deadline on every answer, and for adapters one classification of what
// an answer means for the post — retry later (and when), the account's token refused, refused for
// good, or published-or-not unknown — with a typed code (`duplicate`, `rate_limited`, `quota`, …)
// and the network's own words as the reason. A network says only what differs: where its error text
// is (`reasonOf`) and which answers mean something special for it (`classify`).
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { lazy } from '../lazy.ts';
import { PublishError, type FailureCode } from '../core/errors.ts';

/** No answer (headers, or the next piece of the body) within this: the call fails and is retried. */
const TIMEOUT_MS = 60_000;
/** A 429 or 503 that says nothing of when: try again after this. */
const DEFAULT_RETRY_MS = 60_000;

export interface NetworkAnswer {
  status: number;
  /** A response header (lower-case name), or undefined. */
  header(name: string): string | undefined;
  text: string;
  /** The body parsed as JSON, or the text when it is not JSON, or undefined when empty. */
  body: unknown;
}

export interface NetworkRequest {
  /** A URL, or a path joined to the client's base URL. */
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (bytes of an upload), with `headers` saying what they are. */
  body?: string | Buffer | Readable;
}

/** A failure as a network sees it: what the engine should do, why, and when to try again. */
export interface Failure {
  kind: PublishError['kind'];
  code: FailureCode;
  reason: string;
  retryAfterMs?: number;
}

export interface NetworkHttpOptions {
  /** Names the network in every message ("linkedin: …"). */
  network: string;
  baseUrl: string;
  /** Headers of every call (the bearer token, an API version). */
  headers?: () => Record<string, string>;
  /** The network's error text in an error body. */
  reasonOf(body: unknown, status: number): string | undefined;
  /** What an answer means when it differs from the default below; undefined: the default. */
  classify?(answer: NetworkAnswer, reason: string): Failure | undefined;
}

type Send = (url: string, method: string, headers: Record<string, string>, body: NetworkRequest['body']) => Promise<Omit<NetworkAnswer, 'body'>>;

/**
 * The sender, once undici is loaded. One Agent for every network call of the process: connections
 * stay open between calls, one request at a time on each (a slow answer never holds up another).
 */
const sender = lazy('undici (the HTTP client for networks)', async (): Promise<Send> => {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ pipelining: 1, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  return async (url, method, headers, body) => {
    const res = await request(url, { method: method as Dispatcher.HttpMethod, headers, body, dispatcher });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      header: (name) => {
        const value = res.headers[name];
        return Array.isArray(value) ? value[0] : value;
      },
      text,
    };
  };
});

/**
 * One exchange with a network, unclassified: its status, headers and body, or a thrown Error when it
 * could not be reached. OAuth flows (oauthCall) classify the answer their own way; adapters use
 * NetworkHttp below.
 */
export async function exchange(url: string, request: { method?: string; headers?: Record<string, string>; body?: NetworkRequest['body'] } = {}): Promise<NetworkAnswer> {
  const send = await sender();
  const raw = await send(url, request.method ?? 'GET', request.headers ?? {}, request.body);
  return { ...raw, body: parseBody(raw.text) };
}

export class NetworkHttp {
  readonly #options: NetworkHttpOptions;
  readonly #base: string;

  constructor(options: NetworkHttpOptions) {
    this.#options = options;
    this.#base = options.baseUrl.replace(/\/+$/, '');
  }

  /** The answer of a 2xx; anything else throws the PublishError it stands for. */
  async call(request: NetworkRequest): Promise<NetworkAnswer> {
    const answer = await this.answer(request);
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw this.failureOf(answer);
  }

  /**
   * The answer whatever its status, for a caller that looks at an error answer before it becomes a
   * PublishError (failureOf); only an unreachable network throws.
   */
  async answer(request: NetworkRequest): Promise<NetworkAnswer> {
    const headers: Record<string, string> = { ...this.#options.headers?.(), ...request.headers };
    let body = request.body;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const url = /^https?:\/\//.test(request.url) ? request.url : this.#base + request.url;
    try {
      return await exchange(url, { method: request.method ?? 'GET', headers, body });
    } catch (error) {
      // Unreachable, reset or timed out: the caller reserved what it was about to create before
      // calling, so the next attempt asks the network before trying again.
      throw new PublishError('retryable', `${this.#options.network}: could not reach the API (${(error as Error).message})`, undefined, 'unreachable');
    }
  }

  /** The PublishError an error answer stands for. */
  failureOf(answer: NetworkAnswer): PublishError {
    const reason = this.#options.reasonOf(answer.body, answer.status) ?? `HTTP ${answer.status}`;
    const failure = this.#options.classify?.(answer, reason) ?? defaultFailure(answer, reason);
    return new PublishError(failure.kind, `${this.#options.network}: ${failure.reason}`, failure.retryAfterMs, failure.code);
  }
}

/** What an HTTP status means when the network says nothing more precise. */
function defaultFailure(answer: NetworkAnswer, reason: string): Failure {
  const { status } = answer;
  if (status === 401) return { kind: 'auth', code: 'auth', reason: `the access token was refused (${reason}); reconnect the account` };
  if (status === 429) return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: retryAfterMs(answer) ?? DEFAULT_RETRY_MS };
  if (status === 408 || status >= 500) {
    return { kind: 'retryable', code: 'server', reason: `server error ${status} (${reason})`, ...optional(retryAfterMs(answer)) };
  }
  if (status === 403) return { kind: 'permanent', code: 'forbidden', reason };
  if (status === 404) return { kind: 'permanent', code: 'not_found', reason };
  return { kind: 'permanent', code: 'invalid', reason };
}

/**
 * When the network says to come back: `Retry-After` (seconds or an HTTP date), else a reset header
 * (`x-ratelimit-reset`, `x-rate-limit-reset`: epoch seconds, or seconds from now when small).
 */
export function retryAfterMs(answer: Pick<NetworkAnswer, 'header'>, now = Date.now()): number | undefined {
  const retryAfter = answer.header('retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const reset = Number(answer.header('x-ratelimit-reset') ?? answer.header('x-rate-limit-reset'));
  if (Number.isFinite(reset) && reset > 0) return reset > 1e9 ? Math.max(0, reset * 1000 - now) : reset * 1000;
  return undefined;
}

/** Milliseconds until the next midnight UTC: when daily quotas that say nothing else reset. */
export function untilUtcMidnight(now = Date.now()): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return next.getTime() - now;
}

const optional = (ms: number | undefined) => (ms === undefined ? {} : { retryAfterMs: ms });

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
