// How the X client's JSON calls reach X: undici's request() over one keep-alive pool per process,
// instead of the global fetch. Measured on a drain (bench:publish, --cpu-prof of a worker), fetch's
// WHATWG layers (Request, Headers, web streams for the body, an AbortSignal timer per call) and its
// separate socket writes for headers and body were the largest share of a worker's CPU per
// destination; request() writes headers and a string body together and hands the answer back as
// a plain stream. What X receives is the same call: method, path, Authorization, Content-Type, body.
//
// undici loads with the first call (lazy.ts): an API process that never publishes never loads it.
import type { Dispatcher } from 'undici';
import { lazy } from '../../lazy.ts';

/** No answer (headers, or the next piece of the body) within this: the call fails, and is retried. */
const TIMEOUT_MS = 60_000;

export interface XAnswer {
  status: number;
  /** A response header (lower-case name), or undefined. */
  header(name: string): string | undefined;
  text: string;
}

export type SendX = (url: string, method: string, headers: Record<string, string>, body: string | undefined) => Promise<XAnswer>;

/**
 * The sender, once undici is loaded (concurrent first calls share one load). Awaited apart from the
 * call itself, so that undici failing to load is reported as that (lazy.ts), not disguised as X being
 * unreachable.
 */
export const xSender = lazy('undici (the HTTP client for X)', async (): Promise<SendX> => {
  const { Agent, request } = await import('undici');
  // One Agent for every X call of the process: its connections stay open between calls (a worker has
  // hundreds of destinations in flight), one request at a time on each (no pipelining: a slow answer
  // never holds up another). Idle connections close after undici's default 4 s, well before servers drop them.
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
