// Vimeo's error bodies. The API proper answers with its own envelope
// {error (text for the user), link, developer_message, error_code}; the OAuth token endpoint answers
// RFC 6749 style {error, error_description} (observed: 400 invalid_request "Invalid authorization
// code", vimeo/vimeo.php issue 298). Texts other than that one are paraphrased.
import type { Reply } from '../shared/http.ts';

export function vimeoError(status: number, errorCode: number, error: string, developerMessage: string): Reply {
  return { status, body: { error, link: null, developer_message: developerMessage, error_code: errorCode } };
}

/** No token, or one Vimeo never issued. */
export const invalidToken = (): Reply =>
  vimeoError(401, 8000, 'You must provide a valid authenticated access token.', 'The access token is missing or unknown.');

/** A token the user (or the app) revoked: "The user credentials are invalid." */
export const revokedToken = (): Reply =>
  vimeoError(401, 8003, 'The user credentials are invalid.', 'The access token was revoked; the user must authorize the app again.');

export const notFound = (): Reply =>
  vimeoError(404, 5000, 'The requested page could not be found.', 'No route matches this method and path.');

export const serverError = (status: number): Reply =>
  vimeoError(status, 9999, 'Something strange occurred. Please try again.', 'The emulator was told to fail this request.');

/** The token endpoint's RFC 6749 errors. */
export const tokenError = (status: number, error: string, description: string): Reply => ({ status, body: { error, error_description: description } });
