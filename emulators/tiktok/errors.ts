// TikTok's two error shapes:
// - OAuth (Login Kit v2, /v2/oauth/*): {"error","error_description","log_id"}. TikTok answers these
//   with HTTP 200 (clients report a 200 carrying {"error":"invalid_client",…}); the status is
//   configurable in the emulator in case that changes.
// - API v2: {"data":{…},"error":{"code","message","log_id"}} with the status of TikTok's v2 error
//   table (401 access_token_invalid / scope_not_authorized, 400 invalid_params, 429, 500).
import { randomBytes } from 'node:crypto';
import type { Reply } from '../shared/http.ts';

/** A log id as TikTok writes them: UTC yyyyMMddHHmmss then hex. */
export function logId(nowMs = Date.now()): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}${randomBytes(10).toString('hex').toUpperCase()}`;
}

export const oauthError = (status: number, error: string, description: string): Reply => ({
  status,
  body: { error, error_description: description, log_id: logId() },
});

export const apiError = (status: number, code: string, message: string): Reply => ({
  status,
  body: { data: {}, error: { code, message, log_id: logId() } },
});

export const accessTokenInvalid = (): Reply => apiError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
export const scopeNotAuthorized = (): Reply =>
  apiError(401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.');
export const invalidParams = (message: string): Reply => apiError(400, 'invalid_params', message);
export const internalError = (status = 500): Reply => apiError(status, 'internal_error', 'Something went wrong. Please try again later.');
export const rateLimitExceeded = (): Reply => apiError(429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
/** The 403 group of the Content Posting references (the status is from memory: see the README). */
export const forbidden = (code: string, message: string): Reply => apiError(403, code, message);
/** A PULL_FROM_URL media URL whose domain or URL prefix the app has not verified (Media Transfer Guide). */
export const urlOwnershipUnverified = (): Reply =>
  forbidden('url_ownership_unverified', 'The domain or URL prefix of the media URL is not verified for this client.');
