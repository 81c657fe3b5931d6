// OAuth (API v5): www.pinterest.com's consent page GET /oauth/ (auto-consent for the signed-in user)
// and POST /v5/oauth/token (HTTP Basic app credentials only; authorization_code and refresh_token
// grants; continuous refresh tokens that rotate). Every token request is recorded, never the secret.
import { firstValues, rawBody, type Reply } from '../../shared/http.ts';
import { basicCredentials, redirectBack, type IssuedToken, type OAuthServer } from '../../shared/oauth.ts';
import type { Clock } from '../../shared/clock.ts';
import { apiError, authFailed, badGrant } from '../errors.ts';
import type { PinterestState } from '../state.ts';
import type { Handler } from './common.ts';

export const PINTEREST_SCOPES = [
  'ads:read', 'ads:write', 'billing:read', 'billing:write', 'biz_access:read', 'biz_access:write', 'boards:read', 'boards:read_secret',
  'boards:write', 'boards:write_secret', 'catalogs:read', 'catalogs:write', 'pins:read', 'pins:read_secret', 'pins:write', 'pins:write_secret',
  'user_accounts:read', 'user_accounts:write',
] as const;

export interface OAuthRouteDeps {
  state: PinterestState;
  oauth: OAuthServer;
  clock: Clock;
  route(method: 'GET' | 'POST', url: string, handler: Handler): void;
}

export function registerOAuthRoutes({ state, oauth, clock, route }: OAuthRouteDeps): void {
  const tokenBody = (issued: IssuedToken, responseType: string) => ({
    access_token: issued.accessToken,
    ...(issued.refreshToken
      ? {
          refresh_token: issued.refreshToken,
          refresh_token_expires_in: issued.refreshExpiresIn,
          refresh_token_expires_at: clock.nowSecs() + (issued.refreshExpiresIn ?? 0),
        }
      : {}),
    response_type: responseType,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    scope: issued.scopes.join(','),
  });

  const authorize = (query: Record<string, string | undefined>): Reply => {
    const found = oauth.apps.get(query.client_id ?? '');
    if (!found) return apiError(400, 1, 'Invalid client_id');
    const redirectUri = query.redirect_uri ?? '';
    if (!found.redirectUris.includes(redirectUri)) return apiError(400, 1, 'Invalid redirect_uri: it does not match a redirect URI of the app');
    const back = (params: Record<string, string>) => redirectBack(redirectUri, params, query.state);
    if (query.response_type !== 'code') return back({ error: 'unsupported_response_type' });
    const scopes = (query.scope ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!scopes.length || scopes.some((s) => !(PINTEREST_SCOPES as readonly string[]).includes(s))) return back({ error: 'invalid_scope' });
    const signedIn = oauth.signedInUser;
    if (!signedIn || !state.users.has(signedIn)) return back({ error: 'access_denied' });
    return back({ code: oauth.issueCode({ clientId: found.clientId, redirectUri, scopes })! });
  };

  const token = (body: unknown, authorization: string | undefined, contentType: string): Reply => {
    const form = /^application\/x-www-form-urlencoded/i.test(contentType) ? new URLSearchParams(rawBody(body).toString('utf8')) : new URLSearchParams();
    const basic = basicCredentials(authorization);
    const recorded = Object.fromEntries([...form].filter(([name]) => name !== 'client_secret'));
    state.tokenRequests.push({ grant: form.get('grant_type'), form: recorded, basic: Boolean(basic) });
    // Only HTTP Basic authenticates the app; client_id/client_secret in the form are not looked at.
    const client = basic ? oauth.checkClient(basic.id, basic.secret) : undefined;
    if (!client || client === 'invalid') return authFailed();
    const grant = form.get('grant_type');
    if (!grant) return apiError(400, 1, 'Missing request body parameter: grant_type');
    if (grant === 'authorization_code') {
      if (!form.get('code')) return apiError(400, 1, 'Missing request body parameter: code');
      if (!form.get('redirect_uri')) return apiError(400, 1, 'Missing request body parameter: redirect_uri');
      const issued = oauth.redeemCode({ clientId: client.clientId, code: form.get('code')!, redirectUri: form.get('redirect_uri') });
      if (typeof issued === 'string') return badGrant();
      return { status: 200, body: tokenBody(issued, 'authorization_code') };
    }
    if (grant === 'refresh_token') {
      if (!form.get('refresh_token')) return apiError(400, 1, 'Missing request body parameter: refresh_token');
      const issued = oauth.refresh(client.clientId, form.get('refresh_token')!);
      if (issued === 'invalid') return badGrant();
      return { status: 200, body: tokenBody(issued, 'refresh_token') };
    }
    return apiError(400, 1, `Invalid grant_type: ${grant}`);
  };

  for (const url of ['/oauth/', '/oauth']) route('GET', url, (req) => authorize(firstValues(req.query)));
  route('POST', '/v5/oauth/token', (req) => token(req.body, req.headers.authorization, req.headers['content-type'] ?? ''));
}
