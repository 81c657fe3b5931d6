// Graph API error bodies: {"error":{"message","type","code","error_subcode"?,"fbtrace_id"}}, HTTP 400
// for OAuth and parameter errors (Meta reports throttling and token death in the body, not only in
// the status). Token errors also carry `WWW-Authenticate: OAuth "Facebook Platform" "<kind>" "<message>"`.
import { randomBytes } from 'node:crypto';
import type { Reply } from '../../shared/http.ts';

export interface GraphErrorInput {
  message: string;
  code: number;
  subcode?: number;
  type?: string;
  status?: number;
  /** The second token of WWW-Authenticate (invalid_token, invalid_code, invalid_request). */
  authenticate?: string;
}

export function graphError(input: GraphErrorInput): Reply {
  const body = {
    error: {
      message: input.message,
      type: input.type ?? 'OAuthException',
      code: input.code,
      ...(input.subcode !== undefined ? { error_subcode: input.subcode } : {}),
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  };
  const headers: Record<string, string> = {};
  if (input.authenticate) headers['www-authenticate'] = `OAuth "Facebook Platform" "${input.authenticate}" "${input.message.replace(/"/g, "'")}"`;
  return { status: input.status ?? 400, body, headers };
}

// The token endpoint (observed bodies: wrong client id 101, wrong secret 1, bad or used code 100).
export const invalidAppId = () => graphError({ message: 'Error validating application. Invalid application ID.', code: 101, authenticate: 'invalid_request' });
export const invalidClientSecret = () => graphError({ message: 'Error validating client secret.', code: 1, authenticate: 'invalid_request' });
export const invalidCode = () => graphError({ message: 'Invalid verification code format.', code: 100, authenticate: 'invalid_code' });
export const usedCode = () => graphError({ message: 'This authorization code has been used.', code: 100, authenticate: 'invalid_code' });
export const expiredCode = () => graphError({ message: 'This authorization code has expired.', code: 100, authenticate: 'invalid_code' });
export const redirectMismatch = () =>
  graphError({ message: 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', code: 100, authenticate: 'invalid_code' });
export const missingParameter = (name: string) => graphError({ message: `Missing ${name} parameter.`, code: 100, authenticate: 'invalid_request' });
export const unsupportedGrant = (grant: string) =>
  graphError({ message: `Invalid grant_type: '${grant}'. Supported types: authorization_code, client_credentials, fb_exchange_token`, code: 100, authenticate: 'invalid_request' });

// Access tokens (code 190; subcode 463 expired, 458 app removed by the user).
export const cannotParseToken = () => graphError({ message: 'Invalid OAuth access token - Cannot parse access token', code: 190, authenticate: 'invalid_token' });
export const expiredToken = (expiredAtMs: number, nowMs: number) =>
  graphError({
    message: `Error validating access token: Session has expired on ${metaDate(expiredAtMs)}. The current time is ${metaDate(nowMs)}.`,
    code: 190,
    subcode: 463,
    authenticate: 'invalid_token',
  });
export const appNotAuthorized = (appId: string) =>
  graphError({ message: `Error validating access token: The user has not authorized application ${appId}.`, code: 190, subcode: 458, authenticate: 'invalid_token' });
export const noActiveToken = () => graphError({ message: 'An active access token must be used to query information about the current user.', code: 2500, authenticate: 'invalid_token' });
export const badAppSecretProof = () => graphError({ message: 'Invalid appsecret_proof provided in the API argument', code: 100, type: 'GraphMethodException' });

// Graph reads.
export const nonexistingField = (field: string, nodeType: string) => graphError({ message: `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`, code: 100 });
export const unsupportedGet = (id: string) =>
  graphError({
    message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    code: 100,
    subcode: 33,
    type: 'GraphMethodException',
  });
export const unknownPath = (path: string) => graphError({ message: `Unknown path components: ${path}`, code: 2500 });
export const serviceUnavailable = (status: number) => graphError({ message: 'An unexpected error has occurred. Please retry your request later.', code: 2, type: 'OAuthException', status });

// The login dialog's error page (no redirect: the redirect_uri is not trusted).
export const dialogInvalidApp = () => graphError({ message: 'Invalid App ID: The provided app ID does not look like a valid app ID.', code: 101 });
export const dialogRedirectNotAllowed = () =>
  graphError({
    message: "URL Blocked: This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings. Make sure Client and Web OAuth Login are on and add all your app domains as Valid OAuth Redirect URIs.",
    code: 191,
  });
/** Invented wording: Meta documents no answer for a config_id that is not one of the app's configurations. */
export const dialogInvalidConfiguration = () => graphError({ message: 'Invalid config_id: this configuration does not belong to the app. This message is only shown to developers.', code: 100 });
export const dialogInvalidScopes = (scopes: string[]) => graphError({ message: `Invalid Scopes: ${scopes.join(', ')}. This message is only shown to developers.`, code: 100 });

/** "Tuesday, 10-Dec-24 17:00:00 PST"-style date of Meta's expiry message (UTC here). */
function metaDate(ms: number): string {
  const d = new Date(ms);
  const day = d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  const month = d.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' });
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day}, ${pad(d.getUTCDate())}-${month}-${String(d.getUTCFullYear()).slice(2)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}
