// Vimeo OAuth 2.0 (authorization code, confidential client): the authorize URL, the code exchange
// and the connected user. Every call carries Vimeo's versioned Accept header. The token call uses
// HTTP Basic client credentials and a JSON body; its answer already holds the user, so no profile
// call is needed (GET /me is the fallback). Vimeo user tokens do not expire and come without a
// refresh token: there is no refresh, and the account stays connected until the user revokes it.
import { basicAuth, OAuthError, oauthCall, networkHosts, withQuery, type NetworkOAuth, type OAuthResponse, type OAuthTokens } from '../oauth.ts';

/** API version 3.4, asked for on every call (without it Vimeo answers with the app's default version). */
export const VIMEO_ACCEPT = 'application/vnd.vimeo.*+json;version=3.4';

/**
 * public: read public data (every token needs it); private: read the member's own private and
 * unlisted videos (their upload and transcode status); upload: create videos; edit: set title,
 * description and privacy after the upload; interact: read and answer comments; delete: delete a
 * published video (DELETE /videos/{id}, capabilities.ts). Accounts connected before `delete` was asked
 * for are refused a delete (403) until they connect again.
 */
export const VIMEO_SCOPES = ['public', 'private', 'upload', 'edit', 'interact', 'delete'];

export function createVimeoOAuth(override: string | undefined): NetworkOAuth {
  const { api } = networkHosts({ api: 'https://api.vimeo.com' }, override);

  return {
    network: 'vimeo',
    pkce: false,
    scopes: VIMEO_SCOPES,
    refreshAheadSecs: 0,
    authorizeUrl: (app, input) =>
      withQuery(`${api}/oauth/authorize`, {
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: input.redirectUri,
        state: input.state,
        scope: input.scopes.join(' '),
      }),
    async connect(app, input) {
      const res = await oauthCall('vimeo', `${api}/oauth/access_token`, {
        method: 'POST',
        headers: { authorization: basicAuth(app), 'content-type': 'application/json', accept: VIMEO_ACCEPT },
        body: JSON.stringify({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri }),
      });
      const accessToken = res.ok && typeof res.body?.access_token === 'string' ? res.body.access_token : '';
      if (!accessToken) throw tokenError(res);
      const tokens: OAuthTokens = { accessToken, expiresAt: expiresOn(res.body.expires_on) };
      let user = res.body.user;
      if (!user?.uri) {
        const me = await oauthCall('vimeo', `${api}/me`, { headers: { authorization: `bearer ${accessToken}`, accept: VIMEO_ACCEPT } });
        if (!me.ok) throw profileError(me);
        user = me.body;
      }
      const id = /^\/users\/(\d+)$/.exec(String(user?.uri ?? ''))?.[1];
      if (!id) throw new OAuthError('transient', 'vimeo: the token answer did not say which user connected');
      const username = linkPath(user.link) ?? id;
      return {
        choose: false,
        candidates: [{ id, type: 'personal', name: typeof user.name === 'string' && user.name ? user.name : username, username, profilePictureUrl: picture(user.pictures), tokens }],
      };
    },
  };
}

/**
 * Token errors: refused client credentials are 401; a bad, used or expired code is 400 with an RFC
 * 6749 body (Vimeo answers "invalid_request", "Invalid authorization code"), which means the user
 * has to start again; the rest (429, 5xx, Vimeo's own error envelope) is transient.
 */
function tokenError(res: OAuthResponse): OAuthError {
  const error = typeof res.body?.error === 'string' ? res.body.error : undefined;
  const detail = res.body?.error_description ?? res.body?.developer_message;
  const reason = `vimeo: ${error ?? `HTTP ${res.status}`}${typeof detail === 'string' ? ` (${detail})` : ''}`;
  if (res.status === 401 || error === 'invalid_client' || error === 'unauthorized_client') return new OAuthError('client', reason);
  if (res.status === 400 && (error === 'invalid_request' || error === 'invalid_grant')) return new OAuthError('revoked', reason);
  return new OAuthError('transient', reason);
}

/** GET /me failed: 401 (error_code 8000/8003) means the token is unusable. */
function profileError(res: OAuthResponse): OAuthError {
  const code = typeof res.body?.error_code === 'number' ? ` ${res.body.error_code}` : '';
  return new OAuthError(res.status === 401 || res.status === 403 ? 'revoked' : 'transient', `vimeo: could not read the connected user (HTTP ${res.status}${code})`);
}

/** "https://vimeo.com/<name>" → "<name>" ("user123" for members without a custom URL). */
function linkPath(link: unknown): string | undefined {
  if (typeof link !== 'string') return undefined;
  try {
    return new URL(link).pathname.split('/').filter(Boolean)[0];
  } catch {
    return undefined;
  }
}

/** The largest custom portrait; null when the member has Vimeo's default picture. */
function picture(pictures: any): string | null {
  if (!pictures || pictures.active === false || pictures.type === 'default' || !Array.isArray(pictures.sizes)) return null;
  const sizes = pictures.sizes.filter((s: any) => typeof s?.link === 'string' && s.link);
  if (!sizes.length) return null;
  return sizes.reduce((best: any, s: any) => (Number(s.width) > Number(best.width) ? s : best)).link;
}

/** Ordinary user tokens carry no expiry; the schema allows `expires_on` (a date) for others. */
function expiresOn(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(typeof value === 'number' ? value * 1000 : value);
  return Number.isNaN(date.getTime()) ? null : date;
}
