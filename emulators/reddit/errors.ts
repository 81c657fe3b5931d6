// Reddit's error bodies. API hosts answer {"message": <HTTP reason>, "error": <status>}; the token
// endpoint answers RFC 6749 error names in a JSON object, often with HTTP 200 (recorded answers in
// praw-dev/prawcore's test cassettes: a bad code is 200 {"error": "invalid_grant"}, a bad refresh
// token is 400 {"error": 400}).
import type { Reply } from '../shared/http.ts';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function statusError(status: number, headers?: Record<string, string>): Reply {
  return { status, body: { message: REASONS[status] ?? 'Error', error: status }, headers };
}

/** An expired, revoked or unknown bearer token on oauth.reddit.com. */
export const unauthorized = (): Reply => statusError(401, { 'www-authenticate': 'Bearer realm="reddit", error="invalid_token"' });

/** Wrong or missing client credentials at /api/v1/access_token. */
export const badClient = (): Reply => statusError(401, { 'www-authenticate': 'Basic realm="reddit"' });

/** Generic User-Agents are throttled at once. */
export const tooManyRequests = (): Reply => statusError(429);

/** The token endpoint's errors come back with HTTP 200 unless said otherwise. */
export const tokenError = (error: string, status = 200): Reply => ({ status, body: { error } });

/**
 * A posting call Reddit refused: HTTP 200 with `json.errors` as [CODE, message, field] triples (and
 * `json.ratelimit` next to RATELIMIT); without api_type=json the old jQuery-style answer (not reproduced
 * in detail).
 */
export function refused(form: URLSearchParams, errors: [string, string, string][], ratelimit?: number): Reply {
  return form.get('api_type') === 'json'
    ? { status: 200, body: { json: { ...(ratelimit === undefined ? {} : { ratelimit }), errors } } }
    : { status: 200, body: { jquery: [], success: false } };
}

/** The authorize page's 400: every problem with the request itself, never a redirect. */
export const authorizePageError = (reason: string, fields?: string[]): Reply => ({ status: 400, body: { message: 'Bad Request', error: 400, reason, ...(fields ? { fields } : {}) } });
