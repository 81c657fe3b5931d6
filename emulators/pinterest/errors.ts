// Pinterest's error envelopes, built in one place. The API answers `{code, message}` (the description's
// Error schema); the S3 upload URL answers S3's XML `<Error>`. The texts the description gives are used
// as given (code 2, 29, 8, the 404 examples); the rest are the emulator's (README, "invents").
import type { Reply } from '../shared/http.ts';

export const apiError = (status: number, code: number, message: string): Reply => ({ status, body: { code, message } });

/** A request Pinterest refuses as malformed: code 1, the problem named. */
export const invalid = (message: string): Reply => apiError(400, 1, message);

/** A missing, expired or revoked bearer token, or wrong app credentials at the token endpoint. */
export const authFailed = (): Reply => apiError(401, 2, 'Authentication failed.');

/** A refresh token or code that is not (or no longer) good: pinterest-python-sdk issue 114. */
export const badGrant = (): Reply => apiError(401, 283, 'The authorization grant is invalid');

/** The token lacks a scope the operation's security lists. */
export const notPermitted = (): Reply => apiError(403, 29, 'You are not permitted to access that resource.');

/** The example of the description's 404 for a board (GET /v5/boards/{board_id}/pins). */
export const boardNotFound = (): Reply => apiError(404, 404, 'Board not found.');
export const pinNotFound = (): Reply => apiError(404, 404, 'Pin not found.');
export const mediaNotFound = (): Reply => apiError(404, 404, 'Media not found.');
export const routeNotFound = (): Reply => apiError(404, 404, 'Not found');
export const serverError = (): Reply => apiError(500, 1, 'Something went wrong on our end. Sorry about that.');

const RATE_LIMITED = 'This request exceeded a rate limit. This can happen if the client exceeds one of the published rate limits within a short time window.';

/** 429 code 8, with the X-RateLimit-* headers older API versions documented. */
export const rateLimited = (headers: Record<string, string>): Reply => ({ ...apiError(429, 8, RATE_LIMITED), headers });

/** The body of an injected fault (failNext) that brings none: code 8 for a 429, else code 1. */
export const faultBody = (status: number) => (status === 429
  ? { code: 8, message: 'You have exceeded your rate limit. Try again later.' }
  : { code: 1, message: 'Something went wrong on our end. Sorry about that.' });

/** S3's answer to a refused POST-policy upload. */
export function s3Error(status: number, code: string, message: string): Reply {
  return { status, headers: { 'content-type': 'application/xml' }, body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>` };
}
