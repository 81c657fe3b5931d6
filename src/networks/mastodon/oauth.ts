// Connecting a Mastodon account through OAuth on any instance (https://docs.joinmastodon.org/client/token/,
// https://docs.joinmastodon.org/spec/oauth/): no org registers an app, since each instance is its own
// server; Crier registers its own there on first use (POST /api/v1/apps:
// https://docs.joinmastodon.org/methods/apps/#create), kept per instance by src/accounts. The user
// authorizes at <instance>/oauth/authorize (authorization code with PKCE S256), the code is exchanged at
// <instance>/oauth/token (https://docs.joinmastodon.org/methods/oauth/#token), and the token is read as
// connect.ts reads a typed one, so both ways store the same account. Tokens do not expire: no refresh.
// Every call goes through the SSRF guard but to the operator's configured instance (instance.ts).
import { RequestError } from '../../core/errors.ts';
import { checkUrl, isTransientSsrf, ssrfCause, userFetchFor } from '../../security/ssrf.ts';
import { FORM, formBody, OAuthError, withQuery, type NetworkOAuth, type OAuthApp, type OAuthErrorKind, type OAuthLogin } from '../oauth.ts';
import { accountAt, type ConnectSettings } from './connect.ts';
import { configuredOrigin, instanceFetch, instanceOrigin } from './instance.ts';

/**
 * What Crier asks for, granular (https://docs.joinmastodon.org/api/oauth-scopes/): the account
 * (verify_credentials), statuses and media to publish and delete, and reading statuses (reconcile,
 * replies, figures, imports).
 */
export const MASTODON_SCOPES = ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'] as const;

/** The field of POST /v1/social-networks/mastodon/auth-url that names the instance. */
const FIELD = 'instance_url';

export function mastodonOAuth(settings: ConnectSettings): NetworkOAuth {
  return {
    network: 'mastodon',
    pkce: true,
    scopes: MASTODON_SCOPES,
    refreshAheadSecs: 0,
    instances: {
      field: FIELD,
      origin: (input) => judgeInstance(settings, input),
      register: (origin, input) => register(settings, origin, input),
    },
    authorizeUrl(app, input) {
      // https://docs.joinmastodon.org/methods/oauth/#authorize
      return withQuery(`${input.instance}/oauth/authorize`, {
        response_type: 'code', client_id: app.clientId, redirect_uri: input.redirectUri, scope: input.scopes.join(' '), state: input.state,
        code_challenge: input.codeChallenge, code_challenge_method: input.codeChallenge ? 'S256' : undefined,
      });
    },
    connect: (app, input) => connect(settings, app, { ...input, instance: input.instance! }),
  };
}

/** The instance's origin from what the user typed, judged by the guard now (it judges again at each call). */
async function judgeInstance(settings: ConnectSettings, input: unknown): Promise<{ origin: string } | { problem: string }> {
  const typed = typeof input === 'string' && input.length <= 300 ? instanceOrigin(input) : undefined;
  if (!typed) return { problem: "must be the instance's address (https://mastodon.social) or its host name (mastodon.social)" };
  const origin = await configuredOrigin(typed, settings.trusted);
  if (settings.trusted !== undefined && new URL(settings.trusted).origin === origin) return { origin };
  try {
    await checkUrl(origin, { allowLoopback: settings.allowLoopback });
  } catch (error) {
    return { problem: `Crier does not call this address (${(error as Error).message}); only public https addresses are allowed` };
  }
  return { origin };
}

interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
}

/**
 * One call to the instance; OAuthError for an address refused (`refusedAs`: the registration's
 * `client`, but a refusal at the token call is no reason to forget the app) or unreachable (`transient`).
 */
async function call(settings: ConnectSettings, origin: string, path: string, init: { body: string; contentType: string; refusedAs: OAuthErrorKind }): Promise<Answer> {
  const fetcher = instanceFetch(origin, settings.trusted, userFetchFor(settings.allowLoopback));
  let res: Response;
  try {
    res = await fetcher(origin + path, { method: 'POST', headers: { 'content-type': init.contentType, accept: 'application/json' }, body: init.body });
  } catch (error) {
    const refused = ssrfCause(error);
    if (refused && !isTransientSsrf(refused)) throw new OAuthError(init.refusedAs, `mastodon: the instance's address was refused (${refused.message})`);
    throw new OAuthError('transient', `mastodon: could not reach the instance (${refused?.message ?? (error as Error).message})`);
  }
  const text = await res.text();
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}

/** `error` (and `error_description`) of an answer (https://docs.joinmastodon.org/entities/Error/). */
function said(answer: Answer): string {
  const error = typeof answer.body?.error === 'string' ? answer.body.error : `HTTP ${answer.status}`;
  return typeof answer.body?.error_description === 'string' ? `${error}: ${answer.body.error_description}` : error;
}

/** POST /api/v1/apps (https://docs.joinmastodon.org/methods/apps/#create): 422 when the instance refuses the registration. */
async function register(settings: ConnectSettings, origin: string, input: { redirectUri: string; scopes: readonly string[]; name: string; website: string }): Promise<OAuthApp & { scopes: readonly string[] }> {
  // redirect_uris as one string: every version takes it (an array only since 4.3).
  const answer = await call(settings, origin, '/api/v1/apps', {
    contentType: 'application/json',
    refusedAs: 'client',
    body: JSON.stringify({ client_name: input.name, redirect_uris: input.redirectUri, scopes: input.scopes.join(' '), website: input.website }),
  });
  const body = answer.body;
  if (answer.status === 200 && typeof body?.client_id === 'string' && typeof body.client_secret === 'string') {
    // `scopes` is in the Application entity since 4.3; before, the app has what it asked for.
    const scopes = Array.isArray(body.scopes) && body.scopes.every((s) => typeof s === 'string') ? body.scopes as string[] : input.scopes;
    return { clientId: body.client_id, clientSecret: body.client_secret, scopes };
  }
  if (answer.status === 429 || answer.status >= 500) throw new OAuthError('transient', `mastodon: the instance could not register the app now (${said(answer)})`);
  const notMastodon = answer.status === 404 || (answer.status === 200 && body?.client_id === undefined);
  throw new OAuthError('client', notMastodon ? `mastodon: the address does not answer as a Mastodon instance (${said(answer)})` : `mastodon: ${said(answer)}`);
}

/** The code for a token (PKCE), then the account as connect.ts stores it. */
async function connect(settings: ConnectSettings, app: OAuthApp, input: { code: string; redirectUri: string; codeVerifier?: string; instance: string }): Promise<OAuthLogin> {
  const answer = await call(settings, input.instance, '/oauth/token', {
    contentType: FORM,
    refusedAs: 'revoked',
    body: formBody({ grant_type: 'authorization_code', code: input.code, client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier }),
  });
  const token = typeof answer.body?.access_token === 'string' ? answer.body.access_token : undefined;
  if (answer.status !== 200 || !token) throw tokenError(answer);
  let account;
  try {
    account = await accountAt(settings, input.instance, token);
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    throw new OAuthError(error.status >= 500 ? 'transient' : 'revoked', `mastodon: ${error.message}`);
  }
  return {
    choose: false,
    candidates: [{
      id: account.networkUniqueId, type: 'personal', name: account.username, username: account.username, profilePictureUrl: null,
      tokens: { accessToken: token, expiresAt: null }, serviceUrl: account.serviceUrl!, keepTokenAs: 'credential',
    }],
  };
}

/**
 * Doorkeeper's token errors (https://docs.joinmastodon.org/methods/oauth/#token): 400 invalid_grant (a
 * code used, expired, or not this verifier's), 401 invalid_client (the app is unknown: an admin
 * removed it), anything else transient.
 */
function tokenError(answer: Answer): OAuthError {
  const error = answer.body?.error;
  if (error === 'invalid_client' || answer.status === 401) return new OAuthError('client', `mastodon: ${said(answer)}`);
  if (error === 'invalid_grant' || error === 'invalid_request' || answer.status === 400) return new OAuthError('revoked', `mastodon: ${said(answer)}`);
  return new OAuthError('transient', `mastodon: the instance could not exchange the code (${said(answer)})`);
}
