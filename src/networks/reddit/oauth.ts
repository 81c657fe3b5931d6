// Reddit OAuth 2.0 (web app: authorization code, confidential client): the authorize URL with
// duration=permanent (what yields a refresh token), the code exchange and refresh at
// www.reddit.com/api/v1/access_token (HTTP Basic client credentials, form body), and the connected
// user from oauth.reddit.com/api/v1/me. Every call carries a descriptive User-Agent: Reddit
// throttles generic ones.
import { basicAuth, FORM, formBody, networkHosts, OAuthError, oauthCall, standardTokens, withQuery, type NetworkOAuth, type OAuthApp, type OAuthResponse, type OAuthTokens } from '../oauth.ts';

/**
 * identity: read the member's name and avatar (/api/v1/me); submit: post; read: read posts and
 * comments (status after posting, comments); flair: pick a post flair where a subreddit requires
 * one; edit: edit and delete the member's own posts; history: list the member's own submissions
 * (GET /user/{name}/submitted: imports, and finding a post after a crash). Space-separated, as in Reddit's OAuth2 wiki
 * (Reddit's parser also takes commas).
 */
export const REDDIT_SCOPES = ['identity', 'submit', 'read', 'flair', 'edit', 'history'];

/**
 * Reddit asks for `<platform>:<app ID>:<version> (by /u/<username>)`. Crier does not know the
 * developer's Reddit username, so it names the platform, the org's own client id and itself; the
 * client id makes it unique per app.
 */
export function redditUserAgent(clientId: string): string {
  return `web:${clientId}:crier/1.0`;
}

export function createRedditOAuth(override: string | undefined): NetworkOAuth {
  const hosts = networkHosts({ www: 'https://www.reddit.com', api: 'https://oauth.reddit.com' }, override);

  const token = async (app: OAuthApp, form: Record<string, string>): Promise<OAuthTokens> => {
    const res = await oauthCall('reddit', `${hosts.www}/api/v1/access_token`, {
      method: 'POST',
      headers: { authorization: basicAuth(app), 'content-type': FORM, accept: 'application/json', 'user-agent': redditUserAgent(app.clientId) },
      body: formBody(form),
    });
    const tokens = res.ok ? standardTokens(res.body) : undefined;
    if (tokens) return tokens;
    throw tokenError(res, form.grant_type!);
  };

  return {
    network: 'reddit',
    pkce: false,
    scopes: REDDIT_SCOPES,
    refreshUses: 'refresh_token',
    // Access tokens live an hour.
    refreshAheadSecs: 600,
    authorizeUrl: (app, input) =>
      withQuery(`${hosts.www}/api/v1/authorize`, {
        client_id: app.clientId,
        response_type: 'code',
        state: input.state,
        redirect_uri: input.redirectUri,
        duration: 'permanent',
        scope: input.scopes.join(' '),
      }),
    async connect(app, input) {
      const tokens = await token(app, { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri });
      // raw_json=1: otherwise Reddit HTML-escapes "&" in the avatar URLs.
      const res = await oauthCall('reddit', `${hosts.api}/api/v1/me?raw_json=1`, {
        headers: { authorization: `bearer ${tokens.accessToken}`, 'user-agent': redditUserAgent(app.clientId) },
      });
      const me = res.body;
      if (!res.ok || typeof me?.id !== 'string' || typeof me.name !== 'string') {
        const kind = res.status === 401 || res.status === 403 ? 'revoked' : 'transient';
        throw new OAuthError(kind, `reddit: could not read the connected user (HTTP ${res.status})`);
      }
      const title = typeof me.subreddit?.title === 'string' ? me.subreddit.title.trim() : '';
      return {
        choose: false,
        candidates: [{
          // The fullname ("t2_" + base-36 id): how Reddit itself names accounts across its API.
          id: `t2_${me.id}`,
          type: 'personal',
          name: title || me.name,
          username: me.name,
          profilePictureUrl: avatar(me.snoovatar_img) ?? avatar(me.icon_img) ?? avatar(me.subreddit?.icon_img),
          tokens,
        }],
      };
    },
    /** Reddit refresh tokens do not rotate: an answer without one keeps the stored one. */
    refresh: (app, refreshToken) => token(app, { grant_type: 'refresh_token', refresh_token: refreshToken }),
  };
}

/**
 * Reddit's token errors: refused client credentials are 401 ({"message":"Unauthorized","error":401});
 * a bad, used or expired code is HTTP 200 {"error":"invalid_grant"}; an unknown or revoked refresh
 * token is HTTP 400 (recorded as {"error": 400}, elsewhere reported as invalid_grant). Both mean the
 * user must connect again. 429 (throttling) and 5xx are transient.
 */
function tokenError(res: OAuthResponse, grant: string): OAuthError {
  const error = res.body?.error;
  const reason = `reddit: ${typeof error === 'string' ? error : `HTTP ${res.status}`}`;
  if (res.status === 401 || error === 'invalid_client' || error === 'unauthorized_client') return new OAuthError('client', reason);
  if (error === 'invalid_grant') return new OAuthError('revoked', reason);
  if (grant === 'refresh_token' && res.status === 400) return new OAuthError('revoked', `${reason} (the refresh token was refused)`);
  return new OAuthError('transient', reason);
}

/** An avatar URL, unescaped in case the answer was HTML-escaped; null for an empty one. */
function avatar(value: unknown): string | null {
  if (typeof value !== 'string' || !/^https?:\/\//.test(value)) return null;
  return value.replace(/&amp;/g, '&');
}
