// X OAuth 2.0 (authorization code with PKCE, confidential client): the authorize URL, the code
// exchange, the refresh grant (single-use, rotating refresh tokens) and the connected user.
import { basicAuth, FORM, formBody, OAuthError, oauthCall, standardTokenError, standardTokens, withQuery, type NetworkOAuth, type OAuthApp, type OAuthTokens } from '../oauth.ts';

/** What publishing needs; `offline.access` is what makes X issue a refresh token. */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write'];

export function createXOAuth(urls: { apiUrl: string; authorizeUrl: string }): NetworkOAuth {
  const token = async (app: OAuthApp, form: Record<string, string | undefined>): Promise<OAuthTokens> => {
    const res = await oauthCall('x', `${urls.apiUrl}/2/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basicAuth(app), 'content-type': FORM },
      body: formBody(form),
    });
    const tokens = res.ok ? standardTokens(res.body) : undefined;
    if (tokens) return tokens;
    // X answers a used, revoked or expired grant with invalid_request ("Value passed for the token was
    // invalid.") where RFC 6749 says invalid_grant: both mean the user has to connect again.
    if (res.status === 400 && res.body?.error === 'invalid_request') return Promise.reject(new OAuthError('revoked', `x: invalid_request (${res.body.error_description ?? ''})`));
    throw standardTokenError('x', res);
  };

  return {
    network: 'x',
    pkce: true,
    scopes: X_SCOPES,
    refreshAheadSecs: 600,
    refreshUses: 'refresh_token',
    authorizeUrl: (app, input) =>
      withQuery(urls.authorizeUrl, {
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: input.redirectUri,
        scope: input.scopes.join(' '),
        state: input.state,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
      }),
    async connect(app, input) {
      const tokens = await token(app, { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier });
      const res = await oauthCall('x', `${urls.apiUrl}/2/users/me?user.fields=profile_image_url`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      const user = res.body?.data;
      if (!res.ok || !user?.id || !user.username) throw new OAuthError('transient', `x: could not read the connected user (HTTP ${res.status})`);
      return {
        choose: false,
        candidates: [{ id: user.id, type: 'personal', name: user.name ?? user.username, username: user.username, profilePictureUrl: user.profile_image_url ?? null, tokens }],
      };
    },
    /** X refresh tokens are single-use: the caller stores the new one before anything else uses it. */
    refresh: (app, refreshToken) => token(app, { grant_type: 'refresh_token', refresh_token: refreshToken }),
  };
}
