// The authorization request (RFC 6749 §4.1.1 with PKCE and RFC 8707's `resource`), checked the same
// way twice: at GET /oauth/authorize before the browser is sent to the dashboard's consent page, and
// again when the signed-in user approves or denies (the page could be opened with anything).
//
// A request for an unknown client or an unregistered redirect URI is answered to the user, never at
// that URI (it could be anyone's). Every other fault goes back to the client at its redirect URI,
// as `error` with the request's `state`.
import type { Queryable } from '../db/pool.ts';
import { findClient, type OAuthClient } from './clients.ts';
import { OAuthError } from './errors.ts';
import { isOurResource, type OAuthUrls } from './metadata.ts';
import { isS256Challenge } from './pkce.ts';
import { redirectUriMatches, withQuery } from './redirect-uris.ts';

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  /** The MCP endpoint's URL: the tokens' audience. */
  resource: string;
}

/** A refused authorization request; `redirectTo` is set when the client may be told at its redirect URI. */
export class AuthorizationRequestError extends OAuthError {
  /** The request parameter at fault. */
  readonly field: string;
  readonly redirectTo: string | undefined;

  constructor(error: string, description: string, field: string, redirectTo?: string) {
    super(error, description);
    this.field = field;
    this.redirectTo = redirectTo;
  }
}

/** The parameters as given: a query string's or a JSON body's values. */
export type AuthorizationParams = Record<string, unknown>;

export async function checkAuthorizationRequest(db: Queryable, params: AuthorizationParams, urls: OAuthUrls): Promise<AuthorizationRequest> {
  const clientId = single(params, 'client_id', undefined, urls);
  if (clientId === undefined) throw new AuthorizationRequestError('invalid_request', 'client_id is required', 'client_id');
  const client = await findClient(db, clientId);
  if (!client) throw new AuthorizationRequestError('invalid_request', 'client_id names no registered client; the client must register again', 'client_id');
  const redirectUri = single(params, 'redirect_uri', undefined, urls);
  if (redirectUri === undefined) throw new AuthorizationRequestError('invalid_request', 'redirect_uri is required', 'redirect_uri');
  if (!redirectUriMatches(client.redirectUris, redirectUri)) {
    throw new AuthorizationRequestError('invalid_request', 'redirect_uri is not one of the client\'s registered redirect URIs', 'redirect_uri');
  }

  // From here on the client is told at its redirect URI.
  const back = { uri: redirectUri, state: undefined as string | undefined };
  back.state = single(params, 'state', back, urls);
  const refuse = (error: string, description: string, field: string) =>
    new AuthorizationRequestError(error, description, field, errorRedirect(back, error, description, urls));
  if (single(params, 'response_type', back, urls) !== 'code') throw refuse('unsupported_response_type', 'response_type must be "code"', 'response_type');
  const codeChallenge = single(params, 'code_challenge', back, urls);
  if (codeChallenge === undefined) throw refuse('invalid_request', 'code_challenge is required (PKCE, S256)', 'code_challenge');
  if (single(params, 'code_challenge_method', back, urls) !== 'S256') {
    throw refuse('invalid_request', 'code_challenge_method must be "S256" (plain is refused)', 'code_challenge_method');
  }
  if (!isS256Challenge(codeChallenge)) throw refuse('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)', 'code_challenge');
  const resource = single(params, 'resource', back, urls) ?? urls.resource;
  if (!isOurResource(urls, resource)) throw refuse('invalid_target', `resource must be this server's MCP endpoint, ${urls.resource}`, 'resource');
  return { client, redirectUri, codeChallenge, state: back.state, resource: urls.resource };
}

/** One parameter's value: a string, or undefined when absent; repeated or not text, the request is refused (RFC 6749 §3.1). */
function single(params: AuthorizationParams, name: string, back: { uri: string; state: string | undefined } | undefined, urls: OAuthUrls): string | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && value.length <= 2000) return value;
  const description = `${name} must be given once, as text of at most 2000 characters`;
  throw new AuthorizationRequestError('invalid_request', description, name, back && errorRedirect(back, 'invalid_request', description, urls));
}

/** Where the browser goes with a code: the redirect URI with `code`, the request's `state` and `iss` (RFC 9207). */
export function approvedRedirect(request: AuthorizationRequest, code: string, urls: OAuthUrls): string {
  return withQuery(request.redirectUri, { code, state: request.state, iss: urls.issuer });
}

/** Where the browser goes with a refusal: the redirect URI with `error`, its description, `state` and `iss`. */
export function errorRedirect(back: { uri: string; state: string | undefined }, error: string, description: string, urls: OAuthUrls): string {
  return withQuery(back.uri, { error, error_description: description, state: back.state, iss: urls.issuer });
}
