// Meta's Graph error envelope as graph.threads.net sends it:
// {"error":{"message","type","code","error_subcode"?,"fbtrace_id"}}, HTTP 400 for client and token
// errors (Meta puts the meaning in `code`/`error_subcode`, not in the status), 500 for faults.
import { randomBytes } from 'node:crypto';
import type { Reply } from '../shared/http.ts';

export function metaError(message: string, code: number, subcode?: number, status = 400, type = 'OAuthException'): Reply {
  return {
    status,
    body: {
      error: {
        message,
        type,
        code,
        ...(subcode === undefined ? {} : { error_subcode: subcode }),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    },
  };
}

// Code 190: the access token cannot be used. Subcodes from Meta's error-handling guide:
// 463 expired, 458 app not installed (the user removed it), none = malformed/unknown.
export const invalidToken = (): Reply => metaError('Invalid OAuth access token - Cannot parse access token', 190);
export const expiredToken = (expiredAtMs: number | null, nowMs: number): Reply =>
  metaError(
    `Error validating access token: Session has expired on ${new Date(expiredAtMs ?? nowMs).toUTCString()}. The current time is ${new Date(nowMs).toUTCString()}.`,
    190,
    463,
  );
export const revokedToken = (): Reply => metaError('Error validating access token: The user has not authorized application.', 190, 458);
export const noActiveToken = (): Reply => metaError('An active access token must be used to query information about the current user.', 2500);

// Client credentials (texts as Facebook's OAuth endpoints word them; Threads shares the backend).
export const unknownApp = (): Reply => metaError('Error validating application. Invalid application ID.', 101);
export const missingClientId = (): Reply => metaError('Missing client_id parameter.', 101);
export const badClientSecret = (): Reply => metaError('Error validating client secret.', 1);

// Authorization codes: code 100 with the 3600x subcodes.
export const invalidCode = (): Reply => metaError('Invalid verification code format.', 100);
export const usedCode = (): Reply => metaError('This authorization code has been used.', 100, 36009);
export const expiredCode = (): Reply => metaError('This authorization code has expired.', 100, 36007);
export const redirectMismatch = (): Reply =>
  metaError('Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', 100, 36008);

export const invalidParameter = (message: string): Reply => metaError(message, 100);
export const serverError = (status = 500): Reply => metaError('An unexpected error has occurred. Please retry your request later.', 2, undefined, status);
export const unknownPath = (): Reply => metaError('Unknown path components', 2500);

// Graph node and parameter errors.

/** A refused parameter or field of a Threads node: code 100 with Threads' exception type. */
export const invalidThreadsParameter = (message: string, subcode?: number): Reply => metaError(message, 100, subcode, 400, 'THApiException');

export const nonexistingField = (field: string, node: string): Reply =>
  invalidThreadsParameter(`(#100) Tried accessing nonexisting field (${field}) on node type (${node})`);

/** Graph's answer for an id that is not there or not the caller's. */
export const objectNotFound = (id: string): Reply =>
  metaError(`Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 100, 33, 400, 'GraphMethodException');

export const missingPermission = (scope: string): Reply =>
  metaError(`(#10) The user has not granted the ${scope} permission.`, 10, undefined, 403);

/** threads_publish of a container Threads does not know, or is still processing (Meta's threads_api issue #70). */
export const mediaNotFound = (id: string): Reply => ({
  status: 400,
  body: { error: { message: 'The requested resource does not exist', type: 'OAuthException', code: 24, error_subcode: 4279009, is_transient: false, error_user_title: 'Media Not Found', error_user_msg: `The media with id ${id} cannot be found.`, fbtrace_id: randomBytes(8).toString('base64url') } },
});

export const isReply = (value: unknown): value is Reply => typeof value === 'object' && value !== null && 'status' in value;
