// Mastodon's error envelope (https://docs.joinmastodon.org/entities/Error/): `{"error": "..."}`, with
// `error_description` on OAuth errors only. The texts are those the API documentation shows for each
// method (https://docs.joinmastodon.org/methods/statuses/#create, /methods/media/, /api/rate-limits/).
import type { Reply } from '../shared/http.ts';

export const error = (status: number, text: string, headers?: Record<string, string>): Reply => ({ status, body: { error: text }, ...(headers ? { headers } : {}) });

export const invalidToken = () => error(401, 'The access token is invalid');
export const revokedToken = () => error(401, 'The access token was revoked');
export const recordNotFound = () => error(404, 'Record not found');
/** https://docs.joinmastodon.org/api/oauth-scopes/: a call outside the token's scopes. */
export const outsideScopes = () => error(403, 'This action is outside the authorized scopes');
export const notAllowed = () => error(403, 'This action is not allowed');
export const unprocessable = (text: string) => error(422, text);
export const tooManyRequests = (headers: Record<string, string>) => error(429, 'Too many requests', headers);
export const notFound = () => error(404, 'Not Found');
