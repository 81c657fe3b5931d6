// LinkedIn's error bodies. The API hosts (api.linkedin.com /v2 and /rest) answer
// {status, serviceErrorCode?, code?, message}; the OAuth endpoints on www.linkedin.com answer
// RFC 6749 {error, error_description}. Texts not confirmed by a source are listed in README.md.
import type { Reply } from '../shared/http.ts';

function apiError(status: number, body: Record<string, unknown>): Reply {
  return { status, body: { status, ...body } };
}

/** No Authorization header (or an empty bearer). */
export const emptyToken = (): Reply => apiError(401, { serviceErrorCode: 401, message: 'Empty oauth2_access_token' });
export const invalidToken = (): Reply => apiError(401, { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' });
export const revokedToken = (): Reply =>
  apiError(401, { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message: 'The token used in the request has been revoked by the user' });
export const expiredToken = (): Reply =>
  apiError(401, { serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' });

/** The token lacks the permission the resource needs. */
export const accessDenied = (resource: string): Reply =>
  apiError(403, { serviceErrorCode: 100, code: 'ACCESS_DENIED', message: `Not enough permissions to access: ${resource}` });

/** A /rest/ call without the LinkedIn-Version header. */
export const versionMissing = (): Reply =>
  apiError(400, { code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' });

/**
 * An X-Restli-Protocol-Version other than 1.0.0 or 2.0.0: Rest.li's own refusal (the message of
 * linkedin/rest.li's RestLiServer, as its tests assert it), in LinkedIn's envelope.
 */
export const unsupportedProtocol = (version: string): Reply =>
  apiError(400, { message: `Rest.li protocol version ${version} used by the client is not supported!` });

/** A /rest/ call with a version that is not (or no longer) served. */
export const nonexistentVersion = (version: string): Reply =>
  apiError(426, { code: 'NONEXISTENT_VERSION', message: `Requested version ${version} is not active` });

export const illegalArgument = (message: string): Reply => apiError(400, { code: 'ILLEGAL_ARGUMENT', message });
export const notFound = (message: string): Reply => apiError(404, { code: 'NOT_FOUND', message });
export const serverError = (status: number): Reply => (status === 429 ? throttled() : apiError(status, { message: 'Internal Server Error' }));

/**
 * A spent daily quota: 429 with no Retry-After and no rate-limit headers (LinkedIn sends none).
 * Body as captured in Automattic/wp-calypso#32007.
 */
export const throttled = (): Reply => apiError(429, { serviceErrorCode: 101, message: 'Resource level throttle limit for calls to this resource is reached.' });

/** Rest.li schema validation of a request body: 422, one "ERROR :: /path :: problem" line per field. */
export const schemaErrors = (lines: string[]): Reply => ({ status: 422, body: { message: lines.map((l) => `ERROR :: ${l}\n`).join(''), status: 422 } });

/**
 * The content service's refusals (posts, comments): BadRequestResponseException with per-input
 * details. Shape and the DUPLICATE_POST texts as captured in Arisamiga/Linkedin-RSS#5; other codes
 * and descriptions are the emulator's (see README.md).
 */
export const contentError = (status: number, message: string, code: string, description: string, fieldPath?: string): Reply => ({
  status,
  body: {
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message: `com.linkedin.content.common.exception.BadRequestResponseException: ${message}`,
    errorDetails: { inputErrors: [{ description, input: fieldPath ? { inputPath: { fieldPath } } : {}, code }] },
    status,
  },
});

export const duplicatePost = (urn: string): Reply => contentError(422, `Content is a duplicate of ${urn}`, 'DUPLICATE_POST', 'Duplicate post is detected');

/** The OAuth endpoints' RFC 6749 errors. */
export const oauthError = (status: number, error: string, description: string): Reply => ({ status, body: { error, error_description: description } });

/** What LinkedIn answers a code that is unknown, used, expired, or presented with another app or redirect URI. */
export const badCode = (): Reply =>
  oauthError(400, 'invalid_request', 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists');
