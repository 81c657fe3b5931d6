// Google's error bodies. The token endpoint answers RFC 6749 bodies {error, error_description};
// APIs answer the JSON envelope {error:{code, message, errors?, status, details?}}: YouTube Data v3
// still lists `errors[]` items ({message, domain, reason, location?, locationType?}), the newer
// Business Profile APIs carry typed `details[]` (google.rpc.ErrorInfo, google.rpc.BadRequest). Every
// JSON envelope the emulator answers is built here (the consent page's HTML error page is in routes/oauth.ts).
import type { Reply } from '../shared/http.ts';

export const oauthError = (status: number, error: string, description: string): Reply => ({ status, body: { error, error_description: description } });

export const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export interface LegacyErrorItem {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
}

/** The YouTube Data API v3 envelope with `errors[]`. */
export function legacyError(code: number, message: string, errors: LegacyErrorItem[], headers?: Record<string, string>): Reply {
  return { status: code, headers, body: { error: { code, message, errors, status: STATUS_NAMES[code] ?? 'UNKNOWN' } } };
}

/** The newer envelope with typed `details[]`. */
export function richError(code: number, message: string, details?: unknown[], headers?: Record<string, string>): Reply {
  return { status: code, headers, body: { error: { code, message, status: STATUS_NAMES[code] ?? 'UNKNOWN', ...(details?.length ? { details } : {}) } } };
}

export const errorInfo = (reason: string, service: string, method: string) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason,
  domain: 'googleapis.com',
  metadata: { service, method },
});

/** A google.rpc.BadRequest detail; `field` left out when the violation names none. */
export const badRequest = (field: string | undefined, description: string) => ({
  '@type': 'type.googleapis.com/google.rpc.BadRequest',
  fieldViolations: [{ ...(field === undefined ? {} : { field }), description }],
});

const CREDENTIALS_HINT = 'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';
export const MISSING_CREDENTIALS = `Request is missing required authentication credential. ${CREDENTIALS_HINT}`;
export const INVALID_CREDENTIALS = `Request had invalid authentication credentials. ${CREDENTIALS_HINT}`;
export const INSUFFICIENT_SCOPES = 'Request had insufficient authentication scopes.';
/** What Google sends with a refused bearer token. */
export const INVALID_TOKEN_HEADER = { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' };

/** A 400/403/404 of YouTube's own, one `errors[]` item. */
export const youtubeError = (code: number, reason: string, message: string, domain = 'youtube.video', location?: string): Reply =>
  legacyError(code, message, [{ message, domain, reason, ...(location ? { location, locationType: 'parameter' } : {}) }]);

/**
 * 400 missingRequiredParameter for a list without one of its filters. The item's location is
 * `parameters.` with locationType `other`, as observed in an answer to videos.list (quoted in
 * Agent-Hellboy/pyytdata#23).
 */
export const noFilter = (filters: string[]): Reply => {
  const message = `No filter selected. Expected one of: ${filters.join(', ')}`;
  return legacyError(400, message, [{ message, domain: 'youtube.parameter', reason: 'missingRequiredParameter', location: 'parameters.', locationType: 'other' }]);
};

/** YouTube: the project's daily quota is spent. */
export const youtubeQuotaExceeded = (): Reply => youtubeError(
  403, 'quotaExceeded',
  'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
  'youtube.quota',
);

/** Business Profile: a 400 FAILED_PRECONDITION with its ErrorInfo reason (a location that may not post). */
export function preconditionFailed(message: string, reason: string, service: string): Reply {
  const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: service };
  return { status: 400, body: { error: { code: 400, message, status: 'FAILED_PRECONDITION', details: [info] } } };
}

/** Business Profile v4: a LocalPost refused, its problems in a google.mybusiness.v4.ValidationError. */
export function localPostValidationError(errorDetails: unknown[]): Reply {
  return richError(400, 'Request contains an invalid argument.', [{ '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError', errorDetails }]);
}

/** Business Profile: the edits-per-minute quota of a location is spent (429). */
export function editQuotaExceeded(service: string): Reply {
  const message = `Quota exceeded for quota metric 'Edits' and limit 'Edits per minute per location' of service '${service}'.`;
  return richError(429, message, [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'RATE_LIMIT_EXCEEDED', domain: 'googleapis.com', metadata: { service, quota_metric: 'Edits' } }]);
}
