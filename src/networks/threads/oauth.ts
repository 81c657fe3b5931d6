// Threads OAuth (Meta's Threads API, its own app id and secret): the Authorization Window on
// threads.com, the code exchange for a short-lived token (1 h), its exchange for a long-lived one
// (60 days) which is what Crier stores, and the refresh of that long-lived token itself (there is no
// refresh token: th_refresh_token takes the access token, at least 24 h old and unexpired).
import { expiresIn, FORM, formBody, networkHosts, OAuthError, oauthCall, withQuery, type NetworkOAuth, type OAuthApp, type OAuthResponse, type OAuthTokens } from '../oauth.ts';

/**
 * Publishing, reading and answering replies (first comment, thread chains, comment inbox), deleting
 * posts (DELETE /v1/posts/:id/remote) and reading insights (post and account analytics).
 */
export const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete', 'threads_manage_insights'];

/**
 * Refresh a week before the 60-day expiry: far past the 24 h a token must age before Meta refreshes
 * it (a refresh attempted too early is refused, and a just-connected token is never due), and seven
 * days of hourly passes to get through a Meta outage before the token dies and the user must log in again.
 */
export const THREADS_REFRESH_AHEAD_SECS = 7 * 24 * 3600;

/**
 * Classifies Meta's error envelope {"error":{"message","type","code","error_subcode","fbtrace_id"}}.
 * Meta signals the meaning in `code`, not in the HTTP status (mostly 400 for everything).
 */
export function threadsError(what: string, res: OAuthResponse): OAuthError {
  const error = res.body?.error;
  const code = Number(error?.code);
  const subcode = error?.error_subcode === undefined ? undefined : Number(error.error_subcode);
  const reason = `threads: ${what} failed: ${typeof error?.message === 'string' ? error.message : `HTTP ${res.status}`}${Number.isFinite(code) ? ` (code ${code}${subcode ? `/${subcode}` : ''})` : ''}`;
  // 190: the access token is expired (463), revoked (458/460/467) or invalid — the user must log in again.
  if (code === 190) return new OAuthError('revoked', reason);
  // 100 with 36007/36008/36009: the authorization code expired, was issued for another redirect_uri, or was used.
  if (code === 100 && subcode !== undefined && subcode >= 36007 && subcode <= 36009) return new OAuthError('revoked', reason);
  // 101: unknown app id; 1 with a client-secret message: the app secret was refused.
  if (code === 101 || (code === 1 && /client secret|application/i.test(String(error?.message ?? '')))) return new OAuthError('client', reason);
  // Throttling (4, 17, 32, 613, 80000+), 1/2 (unknown/temporary), 5xx and anything unrecognised: try later.
  return new OAuthError('transient', reason);
}

export function createThreadsOAuth(override: string | undefined): NetworkOAuth {
  // threads.com is where Meta's current docs put the Authorization Window (threads.net redirects there).
  const hosts = networkHosts({ www: 'https://threads.com', graph: 'https://graph.threads.net' }, override);

  /** A long-lived token from /access_token (exchange) or /refresh_access_token (refresh). */
  const longLived = async (what: string, url: string): Promise<OAuthTokens> => {
    const res = await oauthCall('threads', url);
    const token = res.body?.access_token;
    if (!res.ok || typeof token !== 'string' || !token) throw threadsError(what, res);
    return { accessToken: token, expiresAt: expiresIn(res.body.expires_in) };
  };

  return {
    network: 'threads',
    pkce: false,
    scopes: THREADS_SCOPES,
    refreshUses: 'access_token',
    refreshAheadSecs: THREADS_REFRESH_AHEAD_SECS,
    authorizeUrl: (app, input) =>
      withQuery(`${hosts.www}/oauth/authorize`, {
        client_id: app.clientId,
        redirect_uri: input.redirectUri,
        scope: input.scopes.join(','),
        response_type: 'code',
        state: input.state,
      }),
    async connect(app: OAuthApp, input) {
      const exchange = await oauthCall('threads', `${hosts.graph}/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: formBody({
          client_id: app.clientId,
          client_secret: app.clientSecret,
          code: input.code.replace(/#_$/, ''),
          grant_type: 'authorization_code',
          redirect_uri: input.redirectUri,
        }),
      });
      const short = exchange.body?.access_token;
      if (!exchange.ok || typeof short !== 'string' || !short) throw threadsError('the code exchange', exchange);
      // The short-lived token lives one hour: Crier stores the 60-day token it is exchanged for.
      const tokens = await longLived('the long-lived token exchange', withQuery(`${hosts.graph}/access_token`, {
        grant_type: 'th_exchange_token',
        client_secret: app.clientSecret,
        access_token: short,
      }));
      const res = await oauthCall('threads', withQuery(`${hosts.graph}/v1.0/me`, { fields: 'id,username,name,threads_profile_picture_url' }), {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      const user = res.body;
      if (!res.ok || typeof user?.id !== 'string' || typeof user.username !== 'string') {
        throw res.body?.error ? threadsError('reading the connected profile', res) : new OAuthError('transient', `threads: could not read the connected profile (HTTP ${res.status})`);
      }
      return {
        choose: false,
        candidates: [{
          id: user.id,
          type: 'personal',
          name: typeof user.name === 'string' && user.name ? user.name : user.username,
          username: user.username,
          profilePictureUrl: typeof user.threads_profile_picture_url === 'string' ? user.threads_profile_picture_url : null,
          tokens,
        }],
      };
    },
    /** The long-lived token refreshes itself: a new 60-day token (no refresh token exists, the stored none stays none). */
    refresh: (_app, accessToken) =>
      longLived('the token refresh', withQuery(`${hosts.graph}/refresh_access_token`, { grant_type: 'th_refresh_token', access_token: accessToken })),
  };
}
