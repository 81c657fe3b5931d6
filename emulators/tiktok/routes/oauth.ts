// TikTok Login Kit v2:
// - GET /v2/auth/authorize/?client_key&scope=<comma list>&response_type=code&redirect_uri&state
//   (www.tiktok.com): auto-consent for the user of signIn(); redirects with ?code&scopes&state, or
//   ?error&error_description&state. `client_key`, not client_id.
// - POST /v2/oauth/token/ (open.tiktokapis.com), application/x-www-form-urlencoded with client_key
//   and client_secret in the body: authorization_code and refresh_token grants; refresh tokens
//   rotate by default (each refresh returns a new one and the old one stops working).
// - POST /v2/oauth/revoke/ (client_key, client_secret, token): the user's authorization ends.
import { rawBody, type Reply } from '../../shared/http.ts';
import { redirectBack, type IssuedToken } from '../../shared/oauth.ts';
import { oauthError } from '../errors.ts';
import type { TikTokRoute, TikTokWorld } from '../state.ts';

export const TIKTOK_SCOPES = new Set(['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list', 'video.publish', 'video.upload']);

export function oauthRoutes(world: TikTokWorld): TikTokRoute[] {
  const { oauth } = world;
  const fail = (error: string, description: string) => oauthError(world.oauthErrorStatus, error, description);

  const tokenBody = (issued: IssuedToken) => {
    const body: Record<string, unknown> = {
      access_token: issued.accessToken,
      expires_in: issued.expiresIn,
      open_id: world.users.get(issued.userId)?.openId ?? issued.userId,
      scope: issued.scopes.join(','),
      token_type: 'Bearer',
    };
    // Without rotation (the older 24 h / 365 d variant) the same refresh token comes back (echoRefresh),
    // stated with the full lifetime; after omitNextRefreshToken() a refresh answer has neither field.
    if (issued.refreshToken) {
      body.refresh_token = issued.refreshToken;
      body.refresh_expires_in = oauth.lifetimes.refreshSecs;
    }
    return body;
  };

  /** The form body; TikTok refuses anything but application/x-www-form-urlencoded. */
  const readForm = (body: unknown, contentType: string | string[] | undefined): URLSearchParams | undefined => {
    if (!/^application\/x-www-form-urlencoded\b/i.test(String(contentType ?? ''))) return undefined;
    return new URLSearchParams(rawBody(body).toString('utf8'));
  };

  /** client_key + client_secret from the body; client_id is not a TikTok parameter and is ignored. */
  const client = (form: URLSearchParams): Reply | string => {
    const key = form.get('client_key');
    if (!key) return fail('invalid_client', 'Client authentication failed: client_key is missing.');
    const app = oauth.checkClient(key, form.get('client_secret'));
    if (!app || app === 'invalid') return fail('invalid_client', 'Client key or secret is incorrect.');
    return app.clientId;
  };

  return [
    {
      method: 'GET',
      url: '/v2/auth/authorize/',
      handler: ({ query }) => {
        // Without a known client_key and a registered redirect URI TikTok shows an error page.
        const app = oauth.apps.get(query.client_key ?? '');
        if (!app) return fail('invalid_client', query.client_key ? 'The client_key is not valid.' : 'client_key is required.');
        const redirectUri = query.redirect_uri ?? '';
        if (!app.redirectUris.includes(redirectUri)) return fail('invalid_request', 'redirect_uri is not registered for this app.');
        const back = (params: Record<string, string>) => redirectBack(redirectUri, params, query.state);
        if (query.response_type !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code.' });
        // Comma-separated: "user.info.basic video.publish" is one unknown scope.
        const scopes = (query.scope ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        const unknown = scopes.filter((s) => !TIKTOK_SCOPES.has(s));
        if (!scopes.length || unknown.length) return back({ error: 'invalid_scope', error_description: `The scope is invalid: ${unknown.join(',') || '(empty)'}` });
        const userId = oauth.signedInUser;
        const user = userId ? world.users.get(userId) : undefined;
        if (!user) return back({ error: 'access_denied', error_description: 'The user did not authorize the app (emulator: call signIn()).' });
        const granted = scopes.filter((s) => !user.deniedScopes.includes(s));
        const code = oauth.issueCode({ clientId: app.clientId, redirectUri, scopes: granted });
        return back({ code: code!, scopes: granted.join(',') });
      },
    },
    {
      method: 'POST',
      url: '/v2/oauth/token/',
      handler: ({ body, headers }) => {
        const form = readForm(body, headers['content-type']);
        if (!form) return fail('invalid_request', 'The request parameters are malformed.');
        const grant = form.get('grant_type');
        if (!grant) return fail('invalid_request', 'The request parameters are malformed.');
        world.tokenRequests.push(Object.fromEntries([...form].map(([name, value]) => [name, name === 'client_secret' ? '[redacted]' : value])));
        const clientId = client(form);
        if (typeof clientId !== 'string') return clientId;
        if (grant === 'authorization_code') {
          const code = form.get('code');
          const redirectUri = form.get('redirect_uri');
          if (!code || !redirectUri) return fail('invalid_request', 'The request parameters are malformed.');
          const issued = oauth.redeemCode({ clientId, code, redirectUri, codeVerifier: form.get('code_verifier') });
          if (issued === 'expired_code') return fail('invalid_grant', 'Authorization code is expired.');
          if (issued === 'redirect_mismatch') return fail('invalid_grant', 'Redirect URI does not match the one used for the authorization code.');
          if (typeof issued === 'string') return fail('invalid_grant', 'Authorization code is invalid.');
          return { status: 200, body: tokenBody(issued) };
        }
        if (grant === 'refresh_token') {
          const refreshToken = form.get('refresh_token');
          if (!refreshToken) return fail('invalid_request', 'The request parameters are malformed.');
          const issued = oauth.refresh(clientId, refreshToken);
          if (issued === 'invalid') return fail('invalid_grant', 'Refresh token is invalid or expired.');
          return { status: 200, body: tokenBody(issued) };
        }
        return fail('unsupported_grant_type', `The grant type ${grant} is not supported.`);
      },
    },
    {
      method: 'POST',
      url: '/v2/oauth/revoke/',
      handler: ({ body, headers }) => {
        const form = readForm(body, headers['content-type']);
        if (!form) return fail('invalid_request', 'The request parameters are malformed.');
        const clientId = client(form);
        if (typeof clientId !== 'string') return clientId;
        const token = form.get('token') ?? '';
        const check = oauth.checkAccess(token);
        // Revoking ends the user's authorization of the app: every token of the grant stops working.
        if (check.ok) oauth.revokeUser(check.userId);
        else oauth.revoke(token);
        return { status: 200, body: {} };
      },
    },
  ];
}
