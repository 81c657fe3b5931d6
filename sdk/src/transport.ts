// One HTTP call with Crier's retry rules:
// - 429 and 409 that carry Retry-After (rate limit; an Idempotency-Key still in progress): the request
//   was not carried out, so it is sent again after the wait Crier asked for, whatever the method.
// - 5xx and network errors: sent again (with backoff) only when repeating cannot do a thing twice:
//   GET/PUT/DELETE, and creates, which carry an Idempotency-Key reused on every attempt.
// - Any other 4xx: never retried (the same request would fail the same way).
import { CrierError, errorFromResponse } from './errors.ts';

export interface RetryOptions {
  /** Attempts after the first (default 3). */
  retries: number;
  /** The longest wait accepted; a longer Retry-After is not waited for: the error is thrown (default 60 s). */
  maxDelayMs: number;
  /** First backoff for 5xx and network errors, doubled each time (default 500 ms). */
  backoffMs: number;
}

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: BodyInit;
  /** Safe to repeat after an unknown outcome (5xx, connection lost). */
  idempotent: boolean;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds: delta-seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function waitFor(status: number, retryAfter: number | undefined, call: Call, attempt: number, options: RetryOptions): number | undefined {
  if (status === 429 || status === 409) return retryAfter === undefined ? undefined : retryAfter * 1000;
  if (status >= 500 && call.idempotent) return retryAfter !== undefined ? retryAfter * 1000 : options.backoffMs * 2 ** attempt;
  return undefined;
}

/** The 2xx response of `call`, or the CrierError of the last attempt. */
export async function send(fetchFn: FetchLike, call: Call, options: RetryOptions): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetchFn(call.url, { method: call.method, headers: call.headers, body: call.body });
    } catch (cause) {
      const delay = options.backoffMs * 2 ** attempt;
      if (!call.idempotent || attempt >= options.retries || delay > options.maxDelayMs) {
        throw new CrierError(0, `${call.method} ${call.url} failed: ${(cause as Error).message}`, { code: 'network_error', cause });
      }
      await sleep(delay);
      continue;
    }
    if (response.ok) return response;
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    const text = await response.text();
    const delay = waitFor(response.status, retryAfter, call, attempt, options);
    if (delay === undefined || attempt >= options.retries || delay > options.maxDelayMs) throw errorFromResponse(response, text, retryAfter);
    await sleep(delay);
  }
}
