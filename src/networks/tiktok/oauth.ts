// TikTok Login Kit v2 (web, confidential client): the authorize URL on www.tiktok.com with
// `client_key` (TikTok's name for the client id) and comma-separated scopes, the token endpoint on
// open.tiktokapis.com (form body with client_key and client_secret; no Basic auth, no PKCE for web
// apps), rotating refresh tokens, and the connected user from /v2/user/info/.
import { FORM, formBody, networkHosts, oauthCall, OAuthError, standardTokenError, standardTokens, withQuery, type NetworkOAuth, type OAuthApp, type OAuthTokens } from '../oauth.ts';

/**
 * user.info.basic: open_id, avatar, display name. user.info.profile: the @username (needed for the
 * profile and post URLs; since TikTok's 2024 scope migration it is no longer in user.info.basic).
 * video.publish: Direct Post; video.upload: upload to the creator's inbox as a draft.
 */
export const TIKTOK_SCOPES = ['user.info.basic', 'user.info.profile', 'video.publish', 'video.upload'];

/**
 * What reading the creator's videos and figures needs (display.ts): video.list (the Display API) and
 * user.info.stats. Not asked at connect yet: an app must add the Display API product in TikTok's
 * developer portal first, and asking for a scope the app lacks fails the whole authorization.
 */
export const TIKTOK_ENGAGEMENT_SCOPES = ['video.list', 'user.info.stats'];

/** Fields of /v2/user/info/ per scope: asking for a field whose scope was not granted is a 401. */
const BASIC_FIELDS = ['open_id', 'union_id', 'avatar_url', 'display_name'];
const PROFILE_FIELDS = ['username'];

/**
 * Access tokens live 2 h (24 h in the older variant): refresh in the last 30 minutes, which leaves
 * about thirty one-minute passes to get through a TikTok hiccup before the token expires.
 */
export const TIKTOK_REFRESH_AHEAD_SECS = 30 * 60;

interface TokenAnswer {
  tokens: OAuthTokens;
  /** Comma-separated scopes the user granted (users may untick some). */
  scope: string;
  openId: string | undefined;
}

export function createTikTokOAuth(override: string | undefined): NetworkOAuth {
  const hosts = networkHosts({ www: 'https://www.tiktok.com', api: 'https://open.tiktokapis.com' }, override);

  const token = async (app: OAuthApp, form: Record<string, string | undefined>): Promise<TokenAnswer> => {
    const res = await oauthCall('tiktok', `${hosts.api}/v2/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': FORM, 'cache-control': 'no-cache' },
      body: formBody({ client_key: app.clientId, client_secret: app.clientSecret, ...form }),
    });
    // TikTok answers OAuth errors ({"error","error_description","log_id"}) with HTTP 200: a 200 is a
    // success only when it carries a token and no error.
    const tokens = res.ok && !res.body?.error ? standardTokens(res.body) : undefined;
    if (tokens) return { tokens, scope: typeof res.body.scope === 'string' ? res.body.scope : '', openId: typeof res.body.open_id === 'string' ? res.body.open_id : undefined };
    // invalid_grant: the code or refresh token is dead (revoked, expired, already rotated);
    // invalid_client: the client_key/secret were refused; the rest is transient.
    throw standardTokenError('tiktok', res);
  };

  return {
    network: 'tiktok',
    pkce: false,
    scopes: TIKTOK_SCOPES,
    refreshUses: 'refresh_token',
    refreshAheadSecs: TIKTOK_REFRESH_AHEAD_SECS,
    authorizeUrl: (app, input) =>
      withQuery(`${hosts.www}/v2/auth/authorize/`, {
        client_key: app.clientId,
        scope: input.scopes.join(','),
        response_type: 'code',
        redirect_uri: input.redirectUri,
        state: input.state,
      }),
    async connect(app, input) {
      const answer = await token(app, { code: input.code, grant_type: 'authorization_code', redirect_uri: input.redirectUri });
      const granted = new Set(answer.scope.split(',').map((s) => s.trim()));
      const fields = [...BASIC_FIELDS, ...(granted.has('user.info.profile') ? PROFILE_FIELDS : [])];
      const res = await oauthCall('tiktok', withQuery(`${hosts.api}/v2/user/info/`, { fields: fields.join(',') }), {
        headers: { authorization: `Bearer ${answer.tokens.accessToken}` },
      });
      const user = res.body?.data?.user;
      const code = res.body?.error?.code;
      if (!res.ok || (code !== undefined && code !== 'ok') || typeof user?.open_id !== 'string' || !user.open_id) {
        const kind = res.status === 401 || code === 'access_token_invalid' ? 'revoked' : 'transient';
        throw new OAuthError(kind, `tiktok: could not read the connected user (HTTP ${res.status}${typeof code === 'string' ? `, ${code}` : ''})`);
      }
      const displayName = typeof user.display_name === 'string' ? user.display_name : '';
      const username = typeof user.username === 'string' && user.username ? user.username : displayName || user.open_id;
      return {
        choose: false,
        candidates: [{
          id: user.open_id,
          type: 'personal',
          name: displayName || username,
          username,
          profilePictureUrl: typeof user.avatar_url === 'string' && user.avatar_url ? user.avatar_url : null,
          tokens: answer.tokens,
        }],
      };
    },
    /** Refresh tokens rotate: the caller stores the new one before anything else can use the old one. */
    refresh: async (app, refreshToken) => (await token(app, { grant_type: 'refresh_token', refresh_token: refreshToken })).tokens,
  };
}
