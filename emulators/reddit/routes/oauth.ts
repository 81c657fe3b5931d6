// OAuth on www.reddit.com: the authorize page GET /api/v1/authorize(.compact) (auto-consent), the
// token endpoint POST /api/v1/access_token (HTTP Basic client credentials, form body, errors as Reddit
// returns them: mostly HTTP 200 with {"error": ...}) and POST /api/v1/revoke_token. Refresh tokens
// (duration=permanent) do not rotate.
import { rawBody } from '../../shared/http.ts';
import { basicCredentials, redirectBack, type IssuedToken } from '../../shared/oauth.ts';
import { authorizePageError, badClient, tokenError } from '../errors.ts';
import type { Handler, Routing } from './common.ts';

/** Every scope of https://www.reddit.com/api/v1/scopes (as listed in PRAW's docs, 2021), plus "*". */
export const REDDIT_KNOWN_SCOPES = new Set([
  '*', 'account', 'creddits', 'edit', 'flair', 'history', 'identity', 'livemanage', 'modconfig', 'modcontributors', 'modflair',
  'modlog', 'modmail', 'modothers', 'modposts', 'modself', 'modtraffic', 'modwiki', 'mysubreddits', 'privatemessages', 'read',
  'report', 'save', 'structuredstyles', 'submit', 'subscribe', 'vote', 'wikiedit', 'wikiread',
]);

export function registerOAuthRoutes({ route, state, oauth }: Routing): void {
  const authorize: Handler = (req) => {
    const q = req.query as Record<string, string | undefined>;
    // Reddit checks the client and the redirect URI first and shows a 400 page for every problem
    // with the request itself (GET_authorize in reddit's r2/controllers/oauth2.py); only the user's
    // answer goes back to the redirect URI.
    const client = oauth.apps.get(q.client_id ?? '');
    if (!client) return authorizePageError('OAUTH2_INVALID_CLIENT');
    const redirectUri = q.redirect_uri ?? '';
    if (!client.redirectUris.includes(redirectUri)) return authorizePageError('OAUTH2_INVALID_REDIRECT_URI');
    if (q.response_type !== 'code') return authorizePageError('OAUTH2_INVALID_RESPONSE_TYPE');
    // Reddit's scope parser takes commas as well as spaces.
    const scopes = (q.scope ?? '').split(/[\s,]+/).filter(Boolean);
    if (!scopes.length || scopes.some((s) => !REDDIT_KNOWN_SCOPES.has(s))) return authorizePageError('OAUTH2_INVALID_SCOPE');
    if (!q.state) return authorizePageError('NO_TEXT', ['state']);
    const duration = q.duration ?? 'temporary';
    if (duration !== 'temporary' && duration !== 'permanent') return authorizePageError('INVALID_OPTION', ['duration']);
    const userId = oauth.signedInUser;
    if (!userId || !state.users.has(userId)) return redirectBack(redirectUri, { error: 'access_denied' }, q.state);
    // Only duration=permanent gives a refresh token.
    const code = oauth.issueCode({ clientId: client.clientId, redirectUri, scopes, withRefresh: duration === 'permanent' })!;
    return redirectBack(redirectUri, { code }, q.state);
  };
  route('GET', '/api/v1/authorize', false, authorize);
  route('GET', '/api/v1/authorize.compact', false, authorize);

  const tokenBody = (issued: IssuedToken) => ({
    access_token: issued.accessToken,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
    scope: issued.scopes.join(' '),
  });

  route('POST', '/api/v1/access_token', true, (req) => {
    const basic = basicCredentials(req.headers.authorization);
    const client = basic && oauth.checkClient(basic.id, basic.secret);
    if (!client || client === 'invalid') return badClient();
    const form = new URLSearchParams(rawBody(req.body).toString('utf8'));
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = form.get('code');
      const redirectUri = form.get('redirect_uri');
      if (!code || !redirectUri) return tokenError('invalid_request');
      const issued = oauth.redeemCode({ clientId: client.clientId, code, redirectUri });
      // A bad, used or expired code, or another redirect_uri: HTTP 200 {"error": "invalid_grant"} (recorded).
      if (typeof issued === 'string') return tokenError('invalid_grant');
      return { status: 200, body: tokenBody(issued) };
    }
    if (grant === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      // A missing, unknown or revoked refresh token: HTTP 400 {"error": 400} (recorded).
      const refreshed = presented ? oauth.refresh(client.clientId, presented) : 'invalid';
      if (refreshed === 'invalid') return { status: 400, body: { error: 400 } };
      return { status: 200, body: tokenBody(refreshed) };
    }
    return tokenError('unsupported_grant_type');
  });

  route('POST', '/api/v1/revoke_token', true, (req) => {
    const basic = basicCredentials(req.headers.authorization);
    const client = basic && oauth.checkClient(basic.id, basic.secret);
    if (!client || client === 'invalid') return badClient();
    const token = new URLSearchParams(rawBody(req.body).toString('utf8')).get('token');
    if (token) oauth.revoke(token);
    // 204 until 2021, 200 since (praw-dev/prawcore pull 115).
    return { status: 200 };
  });
}
