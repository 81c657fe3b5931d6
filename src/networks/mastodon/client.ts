// Mastodon's REST API (https://docs.joinmastodon.org/client/intro/) on the classification of the one
// HTTP client of adapters (../http.ts). The calls travel on the fetch instance.ts chooses (the SSRF
// guard for a user's instance), so NetworkHttp's own sender is not used: its `failureOf` reads each
// error answer. Mastodon's errors are `{error, error_description?}` (https://docs.joinmastodon.org/entities/Error/):
// 401 a token refused, 403 a scope missing, 404 no such record, 422 a validation refused, 429 a rate
// limit whose end is X-RateLimit-Reset, an ISO 8601 time (https://docs.joinmastodon.org/api/rate-limits/).
import { PublishError } from '../../core/errors.ts';
import { isTransientSsrf, ssrfCause } from '../../security/ssrf.ts';
import { NetworkHttp, retryAfterMs, type Failure, type NetworkAnswer } from '../http.ts';

/** The part of a Status (https://docs.joinmastodon.org/entities/Status/) Crier reads. */
export interface MastodonStatus {
  id: string;
  url: string | null;
  uri: string;
  created_at: string;
  in_reply_to_id: string | null;
  media_attachments: { id: string }[];
}

/** The part of a MediaAttachment (https://docs.joinmastodon.org/entities/MediaAttachment/) Crier reads. */
export interface MastodonMedia {
  id: string;
  url: string | null;
}

export interface MastodonRequest {
  /** Path and query on the instance. */
  path: string;
  method?: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

const reasonOf = (body: unknown): string | undefined => {
  const error = body as { error?: unknown; error_description?: unknown } | undefined;
  if (typeof error?.error !== 'string') return undefined;
  return typeof error.error_description === 'string' ? `${error.error}: ${error.error_description}` : error.error;
};

/** When a 429 ends: X-RateLimit-Reset is an ISO 8601 time on Mastodon (not epoch seconds). */
function rateLimitResetMs(answer: NetworkAnswer, now = Date.now()): number | undefined {
  const reset = Date.parse(answer.header('x-ratelimit-reset') ?? '');
  return Number.isFinite(reset) ? Math.max(0, reset - now) : retryAfterMs(answer, now);
}

function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  if (answer.status === 429) return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: rateLimitResetMs(answer) ?? 5 * 60_000 };
  if (answer.status === 401) return { kind: 'auth', code: 'auth', reason: `the instance refused the access token (${reason}); connect the account again with a new token` };
  if (answer.status === 403 && /scope/i.test(reason)) {
    return { kind: 'auth', code: 'forbidden', reason: `the access token lacks a scope Crier needs (${reason}); make a token with the scopes read and write, then connect the account again` };
  }
  if (answer.status === 413) return { kind: 'permanent', code: 'media_rejected', reason: `a file is bigger than the instance takes (${reason})` };
  if (answer.status === 422 && /file|media|image|video|processing/i.test(reason)) return { kind: 'permanent', code: 'media_rejected', reason };
  return undefined;
}

export class MastodonClient {
  readonly origin: string;
  readonly #token: string;
  readonly #fetch: typeof fetch;
  readonly #http: NetworkHttp;

  constructor(origin: string, token: string, fetchFn: typeof fetch) {
    this.origin = origin;
    this.#token = token;
    this.#fetch = fetchFn;
    this.#http = new NetworkHttp({ network: 'mastodon', baseUrl: origin, reasonOf, classify });
  }

  /** The answer whatever its status; only an instance that cannot be reached (or is refused by the guard) throws. */
  async answer(request: MastodonRequest): Promise<NetworkAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}`, ...request.headers };
    let body: string | FormData | undefined = request.form;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let res: Response;
    try {
      res = await this.#fetch(this.origin + request.path, { method: request.method ?? 'GET', headers, body });
    } catch (error) {
      throw unreachable(error);
    }
    const text = await res.text();
    return { status: res.status, header: (name) => res.headers.get(name) ?? undefined, text, body: parseBody(text) };
  }

  /** The body of a 2xx; anything else throws the PublishError it stands for. */
  async call<T>(request: MastodonRequest): Promise<{ status: number; body: T }> {
    const answer = await this.answer(request);
    if (answer.status >= 200 && answer.status < 300) return { status: answer.status, body: answer.body as T };
    throw this.failureOf(answer);
  }

  failureOf(answer: NetworkAnswer): PublishError {
    return this.#http.failureOf(answer);
  }
}

/**
 * A refused address is final and said in a few words (what the address answered is never shown); an
 * unreachable instance is retried, the reservation standing, so the next attempt asks before posting.
 */
function unreachable(error: unknown): PublishError {
  const refused = ssrfCause(error);
  if (refused && !isTransientSsrf(refused)) {
    return new PublishError('permanent', `mastodon: the instance's address was refused (${refused.message})`, undefined, 'forbidden');
  }
  return new PublishError('retryable', `mastodon: could not reach the instance (${(refused ?? (error as Error)).message})`, undefined, 'unreachable');
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
