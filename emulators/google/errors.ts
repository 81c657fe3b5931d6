// Google's error bodies. The token endpoint answers RFC 6749 bodies {error, error_description};
// APIs answer the JSON envelope {error:{code, message, errors?, status, details?}}: YouTube Data v3
// still lists `errors[]` items ({message, domain, reason, location?, locationType?}), the newer
// Business Profile APIs carry typed `details[]` (google.rpc.ErrorInfo, google.rpc.BadRequest).
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

export const badRequest = (field: string, description: string) => ({
  '@type': 'type.googleapis.com/google.rpc.BadRequest',
  fieldViolations: [{ field, description }],
});

const CREDENTIALS_HINT = 'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';
export const MISSING_CREDENTIALS = `Request is missing required authentication credential. ${CREDENTIALS_HINT}`;
export const INVALID_CREDENTIALS = `Request had invalid authentication credentials. ${CREDENTIALS_HINT}`;
export const INSUFFICIENT_SCOPES = 'Request had insufficient authentication scopes.';
/** What Google sends with a refused bearer token. */
export const INVALID_TOKEN_HEADER = { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' };
