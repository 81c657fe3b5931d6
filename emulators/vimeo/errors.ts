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

// The publishing side's errors, with the codes vimeo/openapi api.yaml lists for each operation
// (POST /me/videos: 2204, 2205, 2230, 3116, 4101, 4102; POST /videos/{id}/comments: 2207, 3413).

/** 400 2204: "The request contains invalid body parameters." */
export const invalidParameters = (field: string, why: string): Reply =>
  vimeoError(400, 2204, 'You have provided an invalid parameter. Please contact developer of this application.', `The parameter "${field}" ${why}.`);

/** 400 2205: "The body of the request isn't formatted properly." */
export const malformedBody = (): Reply =>
  vimeoError(400, 2205, 'There was a problem with your request. Please contact developer of this application.', 'The body of the request must be a JSON object.');

/** 400 2230: "The upload type is invalid." */
export const invalidUploadType = (approach: string): Reply =>
  vimeoError(400, 2230, 'There was a problem with your upload. Please contact developer of this application.', `The upload approach "${approach}" is invalid.`);

/** 400 3116: the 3.2 `type` parameter instead of 3.4's `upload.approach`. */
export const legacyType = (): Reply =>
  vimeoError(400, 3116, 'There was a problem with your upload. Please contact developer of this application.', 'Use upload.approach instead of type starting from API version 3.4.');

/** 403 4102: "The authenticated user's allotted quota has been reached." */
export const quotaReached = (size: number, free: number): Reply =>
  vimeoError(403, 4102, 'Your upload quota has been reached.', `The video is ${size} bytes and the user's upload quota has ${Math.max(0, free)} bytes left.`);

/** 404 5000 for a video or comment that is not there (or not this user's to read). */
export const videoNotFound = (): Reply =>
  vimeoError(404, 5000, 'The requested video couldn\'t be found.', 'The requested video couldn\'t be found.');

/** 404 5000 for a comment that is not a top-level comment of the video (replies are one tier deep). */
export const commentNotFound = (): Reply =>
  vimeoError(404, 5000, 'The requested comment couldn\'t be found.', 'No top-level comment of this video has this id.');

/** 403: the token lacks the scope the call needs (the text as reported in vimeo/vimeo.php#100; the code is chosen). */
export const missingScope = (scope: string): Reply =>
  vimeoError(403, 3200, `Your access token does not have the "${scope}" scope`, `This call needs a token with the "${scope}" scope.`);

/** 400 2207: "The comment text is missing." */
export const commentTextMissing = (): Reply =>
  vimeoError(400, 2207, 'Please enter a comment.', 'The comment text is missing.');

/** 403 3413: "Comments are disabled for this video." */
export const commentsDisabled = (): Reply =>
  vimeoError(403, 3413, 'Comments are disabled for this video.', 'Comments are disabled for this video.');

/** 429: the member's calls this window are spent (code 9000 as reported by client libraries; unconfirmed). */
export const tooManyRequests = (): Reply =>
  vimeoError(429, 9000, 'Too many API requests. Please wait and try again.', 'The rate limit for this user was exceeded.');

/**
 * 403: another member's video, which the caller may see but not change. The texts are api.yaml's
 * 403 descriptions of edit_video and delete_video (schema `legacy-error`, which requires only
 * `error`); the error_code is chosen.
 */
export const notVideoOwner = (action: 'edit' | 'delete'): Reply => action === 'edit'
  ? vimeoError(403, 3200, 'The authenticated user doesn\'t own the video.', 'Only the video\'s owner may edit it.')
  : vimeoError(403, 3200, 'The authenticated user doesn\'t own the video and can\'t delete it.', 'Only the video\'s owner may delete it.');

/** 403 3412: "The authenticated user can't comment." (api.yaml create_comment): a comment section open to contacts only. */
export const cannotComment = (): Reply =>
  vimeoError(403, 3412, 'The authenticated user can\'t comment.', 'Comments on this video are open to the owner\'s contacts only.');
