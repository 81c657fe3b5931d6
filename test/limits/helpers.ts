// Helpers of the limits tests: reading the rate-limit headers. A second API process on the same
// database is a shared starter (test/helpers/second-server.ts).
import type { ApiResponse } from '../helpers/harness.ts';

export interface RateHeaders {
  limit: number | undefined;
  remaining: number | undefined;
  reset: number | undefined;
  retryAfter: number | undefined;
}

export function rateHeaders(res: ApiResponse): RateHeaders {
  const number = (name: string) => {
    const value = res.headers.get(name);
    return value === null ? undefined : Number(value);
  };
  return { limit: number('x-ratelimit-limit'), remaining: number('x-ratelimit-remaining'), reset: number('x-ratelimit-reset'), retryAfter: number('retry-after') };
}

/** Seconds since the epoch, as X-RateLimit-Reset counts them. */
export function nowSeconds(): number {
  return Date.now() / 1000;
}
