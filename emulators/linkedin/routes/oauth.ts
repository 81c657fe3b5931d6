// LinkedIn's OAuth endpoints on www.linkedin.com: the consent page (auto-consent for the signed-in
// member) and the token endpoint (authorization_code and, for partner apps, refresh_token).
import type { Reply } from '../../shared/http.ts';
import { rawBody } from '../../shared/http.ts';
import { redirectBack, type IssuedToken } from '../../shared/oauth.ts';
import { badCode, oauthError } from '../errors.ts';
import type { LinkedInWorld } from '../state.ts';
import type { Route, RouteInput } from './context.ts';

export function oauthRoutes(world: LinkedInWorld): Route[] {
  const { oauth } = world;

  /** LinkedIn lists granted scopes comma-separated in token answers. */
  const tokenBody = (issued: IssuedToken, showRefresh: boolean) => ({
    access_token: issued.accessToken,
    expires_in: issued.expiresIn,
    ...(showRefresh && issued.refreshToken ? { refresh_token: issued.refreshToken, refresh_token_expires_in: issued.refreshExpiresIn } : {}),
    scope: issued.scopes.join(','),
    token_type: 'Bearer',
  });

  const authorize = ({ query }: RouteInput): Reply => {
    // Without a known app and a registered redirect URI there is nowhere safe to go: LinkedIn shows an error page.
    const app = world.apps.get(query.client_id ?? '');
    if (!app) return { status: 400, body: { error: 'invalid_request', error_description: 'The passed in client_id is invalid' } };
    const redirectUri = query.redirect_uri ?? '';
    if (!app.redirectUris.includes(redirectUri)) return { status: 400, body: { error: 'invalid_request', error_description: 'The redirect_uri does not match the registered value' } };
    const back = (params: Record<string, string>) => redirectBack(redirectUri, params, query.state);
    if (query.response_type !== 'code') return back({ error: 'invalid_request', error_description: 'Unsupported response_type' });
    const scopes = (query.scope ?? '').split(/[ ,]+/).filter(Boolean);
    if (!scopes.length) return back({ error: 'invalid_request', error_description: 'The request is missing the scope parameter' });
    const refused = scopes.find((s) => !app.scopes.includes(s));
    if (refused) return back({ error: 'unauthorized_scope_error', error_description: `Scope "${refused}" is not authorized for your application` });
    const signedIn = oauth.signedInUser;
    if (!signedIn || !world.members.has(signedIn)) return back({ error: 'user_cancelled_login', error_description: 'The user cancelled LinkedIn login' });
    const code = oauth.issueCode({ clientId: app.clientId, redirectUri, scopes });
    return back({ code: code! });
  };

  const accessToken = ({ body, headers }: RouteInput): Reply => {
    if (!/^application\/x-www-form-urlencoded/i.test(headers['content-type'] ?? '')) {
      return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(rawBody(body).toString('utf8'));
    const grant = form.get('grant_type');
    if (!grant) return oauthError(400, 'invalid_request', 'A required parameter "grant_type" is missing');
    if (grant !== 'authorization_code' && grant !== 'refresh_token') return oauthError(400, 'unsupported_grant_type', `The grant_type "${grant}" is not supported`);
    const needed = grant === 'authorization_code' ? ['code', 'redirect_uri', 'client_id', 'client_secret'] : ['refresh_token', 'client_id', 'client_secret'];
    const missing = needed.find((name) => !form.get(name));
    if (missing) return oauthError(400, 'invalid_request', `A required parameter "${missing}" is missing`);
    const client = oauth.checkClient(form.get('client_id'), form.get('client_secret'));
    if (!client || client === 'invalid') return oauthError(401, 'invalid_client', 'Client authentication failed');
    const app = world.apps.get(client.clientId)!;

    if (grant === 'authorization_code') {
      const issued = oauth.redeemCode({ clientId: app.clientId, code: form.get('code')!, redirectUri: form.get('redirect_uri') });
      if (typeof issued === 'string') return badCode();
      // Every grant gets a refresh token in the OAuthServer; only partner apps ever see it.
      return { status: 200, body: tokenBody(issued, app.refreshTokens) };
    }

    if (!app.refreshTokens) return oauthError(400, 'invalid_grant', 'The provided authorization grant or refresh token is invalid, expired or revoked');
    const issued = oauth.refresh(app.clientId, form.get('refresh_token')!);
    if (issued === 'invalid') return oauthError(400, 'invalid_grant', 'The provided authorization grant or refresh token is invalid, expired or revoked');
    // No rotation (echoRefresh): the same refresh token comes back with what is left of its 365 days.
    return { status: 200, body: tokenBody(issued, true) };
  };

  return [
    { method: 'GET', url: '/oauth/v2/authorization', handler: authorize },
    { method: 'POST', url: '/oauth/v2/accessToken', handler: accessToken },
  ];
}
