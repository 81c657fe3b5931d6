// What a route is here. The OAuth and Business Profile listing routes (oauth.ts, accounts.ts) take
// the query as it arrived, every value of a repeated parameter kept (../validate/query.ts), and read
// it by their own rules; the YouTube routes (../youtube/) take it after the discovery check
// (../validate/youtube-query.ts), one string a parameter.
import type { Reply } from '../../shared/http.ts';
import type { QueryValues } from '../validate/query.ts';

interface Request {
  params: Record<string, string>;
  body: unknown;
  headers: Record<string, string | undefined>;
}

/** A request to an OAuth or Business Profile listing route: every value of each query parameter. */
export interface RawInput extends Request {
  query: QueryValues;
}

/** A request to a YouTube route, after the discovery check: one string a parameter. */
export interface RouteInput extends Request {
  query: Record<string, string | undefined>;
}

export interface GoogleRoute {
  method: 'GET' | 'POST';
  url: string;
  handler(input: RawInput): Reply;
}
