// Google's OAuth 2.0 web-server flow, shared by YouTube and Google Business Profile: the authorize
// URL (offline access, consent screen, PKCE S256), the code and refresh grants at
// oauth2.googleapis.com, and the classification of Google's token and API error bodies. Each network
// adds its scopes and the listing of what a login grants (src/networks/<network>/oauth.ts).
import { FORM, formBody, networkHosts, OAuthError, oauthCall, standardTokenError, standardTokens, withQuery, type NetworkOAuth, type OAuthApp, type OAuthLogin, type OAuthResponse, type OAuthTokens } from '../oauth.ts';
import type { NetworkId } from '../../core/network-id.ts';

export const GOOGLE_HOSTS = {
  accounts: 'https://accounts.google.com',
  oauth2: 'https://oauth2.googleapis.com',
};

export interface GoogleLoginInput {
  /** The tokens of the login; every account it lists publishes with them. */
  tokens: OAuthTokens;
  /** The scopes Google says it granted (the user may untick some on the consent screen). */
  grantedScopes: ReadonlySet<string>;
}

export interface GoogleOAuthSpec {
  network: NetworkId;
  /** Asked for on the consent screen, in this order. */
  scopes: readonly string[];
  /** Scopes without which nothing works: a login missing one fails with a message saying so. */
  requiredScopes: readonly string[];
  /** What the user sees when a required scope was unticked. */
  scopeHint: string;
  /** Lists what the login grants (a channel, locations). */
  login(input: GoogleLoginInput): Promise<OAuthLogin>;
  override: string | undefined;
}

/**
 * A Google network's NetworkOAuth. Google sends a refresh token only with access_type=offline on a
 * consent screen, hence prompt=consent on every connect (a reconnect would otherwise get none), and
 * never rotates it: a refresh answers with an access token only, the stored refresh token stays.
 */
export function createGoogleOAuth(spec: GoogleOAuthSpec): NetworkOAuth {
  const hosts = networkHosts(GOOGLE_HOSTS, spec.override);
  const { network } = spec;

  const token = async (app: OAuthApp, form: Record<string, string | undefined>): Promise<{ tokens: OAuthTokens; scope: string | undefined }> => {
    // Google takes the client credentials in the body (client_secret_post), as its own libraries send them.
    const res = await oauthCall(network, `${hosts.oauth2}/token`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: formBody({ ...form, client_id: app.clientId, client_secret: app.clientSecret }),
    });
    const tokens = res.ok ? standardTokens(res.body) : undefined;
    if (tokens) return { tokens, scope: typeof res.body.scope === 'string' ? res.body.scope : undefined };
    throw googleTokenError(network, res);
  };

  return {
    network,
    pkce: true,
    scopes: spec.scopes,
    // Access tokens live an hour.
    refreshAheadSecs: 600,
    refreshUses: 'refresh_token',
    authorizeUrl: (app, input) =>
      withQuery(`${hosts.accounts}/o/oauth2/v2/auth`, {
        client_id: app.clientId,
        redirect_uri: input.redirectUri,
        response_type: 'code',
        scope: input.scopes.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state: input.state,
        code_challenge: input.codeChallenge,
        code_challenge_method: input.codeChallenge ? 'S256' : undefined,
      }),
    async connect(app, input) {
      const { tokens, scope } = await token(app, { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier });
      // With granular consent the user may untick scopes; the answer's `scope` says what was granted.
      const granted = new Set((scope ?? spec.scopes.join(' ')).split(/\s+/).filter(Boolean));
      const missing = spec.requiredScopes.filter((s) => !granted.has(s));
      if (missing.length) throw new OAuthError('revoked', `${network}: the permission to ${spec.scopeHint} was not granted (${missing.join(', ')}); connect again and keep it ticked`);
      return spec.login({ tokens, grantedScopes: granted });
    },
    /** Google does not rotate: the answer has no refresh_token and the stored one stays. */
    refresh: async (app, refreshToken) => (await token(app, { grant_type: 'refresh_token', refresh_token: refreshToken })).tokens,
  };
}

/**
 * Token endpoint errors: invalid_grant ("Token has been expired or revoked.", "Bad Request" for a
 * used code) is a dead grant; invalid_client (401), unauthorized_client and redirect_uri_mismatch
 * are the app's setup; anything else (5xx, invalid_request, rate limits) is transient.
 */
export function googleTokenError(network: NetworkId, res: OAuthResponse): OAuthError {
  // A redirect URI the app does not list is the app's setup, not a passing failure.
  if (res.body?.error === 'redirect_uri_mismatch') return new OAuthError('client', `${network}: redirect_uri_mismatch (register the callback URL with the app)`);
  return standardTokenError(network, res);
}

/**
 * An API call that failed, from Google's envelope {error:{code, message, status, errors?[{reason}],
 * details?[{reason}]}}: a refused or under-scoped token means the user must connect again; an API not
 * enabled for the app's Cloud project is the app's setup; quotas, rate limits and 5xx are transient.
 */
export function googleApiError(network: NetworkId, what: string, res: OAuthResponse): OAuthError {
  const error = res.body?.error;
  const reasons = new Set<string>([
    ...(Array.isArray(error?.errors) ? error.errors.map((e: any) => String(e?.reason ?? '')) : []),
    ...(Array.isArray(error?.details) ? error.details.map((d: any) => String(d?.reason ?? '')) : []),
  ]);
  const status = typeof error?.status === 'string' ? error.status : '';
  const message = typeof error?.message === 'string' ? `: ${error.message}` : '';
  const reason = `${network}: could not read ${what} (HTTP ${res.status}${status ? ` ${status}` : ''}${message})`;
  if (res.status === 401) return new OAuthError('revoked', reason);
  if (res.status === 403) {
    if (['quotaExceeded', 'rateLimitExceeded', 'userRateLimitExceeded', 'dailyLimitExceeded', 'RATE_LIMIT_EXCEEDED'].some((r) => reasons.has(r))) return new OAuthError('transient', reason);
    if (['accessNotConfigured', 'SERVICE_DISABLED', 'API_DISABLED'].some((r) => reasons.has(r))) return new OAuthError('client', reason);
    return new OAuthError('revoked', reason);
  }
  return new OAuthError('transient', reason);
}
