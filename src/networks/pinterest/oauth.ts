// Pinterest OAuth (API v5): authorization code with the app's credentials in HTTP Basic (the
// token endpoint refuses them in the form), continuous refresh tokens (60 days, a new one with
// every refresh, the old one dead: rotation), and the connected user account.
import { apiError, basicAuth, FORM, formBody, networkHosts, OAuthError, oauthCall, standardTokens, withQuery, type NetworkOAuth, type OAuthApp, type OAuthResponse, type OAuthTokens } from '../oauth.ts';

/** Reading boards to pick one, creating pins, and the account itself. */
export const PINTEREST_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'];

/** Pinterest's "authorization grant is invalid": a used, expired or revoked code or refresh token. */
const INVALID_GRANT = 283;

export function createPinterestOAuth(override: string | undefined): NetworkOAuth {
  const hosts = networkHosts({ www: 'https://www.pinterest.com', api: 'https://api.pinterest.com' }, override);

  const token = async (app: OAuthApp, form: Record<string, string | undefined>): Promise<OAuthTokens> => {
    const res = await oauthCall('pinterest', `${hosts.api}/v5/oauth/token`, {
      method: 'POST',
      headers: { authorization: basicAuth(app), 'content-type': FORM },
      body: formBody(form),
    });
    const tokens = res.ok ? standardTokens(res.body) : undefined;
    if (tokens) return tokens;
    throw tokenError(res);
  };

  return {
    network: 'pinterest',
    pkce: false,
    scopes: PINTEREST_SCOPES,
    // 30-day access tokens: refresh a day ahead.
    refreshAheadSecs: 24 * 3600,
    refreshUses: 'refresh_token',
    authorizeUrl: (app, input) =>
      withQuery(`${hosts.www}/oauth/`, {
        client_id: app.clientId,
        redirect_uri: input.redirectUri,
        response_type: 'code',
        scope: input.scopes.join(','),
        state: input.state,
      }),
    async connect(app, input) {
      // continuous_refresh: apps created before 2025-09-25 must ask for continuous refresh tokens.
      const tokens = await token(app, { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, continuous_refresh: 'true' });
      const res = await oauthCall('pinterest', `${hosts.api}/v5/user_account`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      const account = res.body;
      if (!res.ok || typeof account?.username !== 'string' || !account.username) throw apiError('pinterest', 'the connected account', res);
      return {
        choose: false,
        candidates: [{
          id: typeof account.id === 'string' && account.id ? account.id : account.username,
          type: account.account_type === 'BUSINESS' ? 'business' : 'personal',
          name: account.business_name || account.username,
          username: account.username,
          profilePictureUrl: typeof account.profile_image === 'string' ? account.profile_image : null,
          tokens,
        }],
      };
    },
    /** Rotation: the answer carries a new refresh token and the one sent stops working. */
    refresh: (app, refreshToken) => token(app, { grant_type: 'refresh_token', refresh_token: refreshToken, continuous_refresh: 'true' }),
  };
}

/** Pinterest errors are {code, message}: 283 is a dead grant, other 401s refuse the app's credentials. */
function tokenError(res: OAuthResponse): OAuthError {
  const code = typeof res.body?.code === 'number' ? res.body.code : undefined;
  const reason = `pinterest: ${code !== undefined ? `code ${code}` : `HTTP ${res.status}`}${typeof res.body?.message === 'string' ? ` (${res.body.message})` : ''}`;
  if (code === INVALID_GRANT) return new OAuthError('revoked', reason);
  if (res.status === 401 || res.status === 403) return new OAuthError('client', reason);
  return new OAuthError('transient', reason);
}
