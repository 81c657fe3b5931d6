// X's OAuth 2.0: the consent page GET /i/oauth2/authorize (auto-consent: it redirects at once on
// behalf of the user set with signIn()), POST /2/oauth2/token (authorization_code grant with PKCE,
// refresh_token grant with rotating single-use refresh tokens) and POST /2/oauth2/revoke. Token
// bodies are form-encoded; the client comes from Basic authentication (confidential clients) or
// from `client_id` in the body (public clients).
import { createHash, randomBytes } from 'node:crypto';
import { rawBody, type Reply } from '../../shared/http.ts';
import { oauthError } from '../errors.ts';
import { KNOWN_SCOPES } from '../validate/scopes.ts';
import type { XPublicRoute } from './route.ts';
import { ACCESS_TOKEN_SECS, type XApp, type XWorld } from '../state.ts';

/** Authorization codes expire 30 s after issue (X's documentation). */
const CODE_TTL_MS = 30_000;

export function oauthRoutes(world: XWorld): XPublicRoute[] {
  const { store } = world;
  const readForm = (body: unknown) => new URLSearchParams(rawBody(body).toString('utf8'));
  const noClient = oauthError('unauthorized_client', 'Missing valid authorization header');
  const hasClient = (params: URLSearchParams, authorization: string | undefined) =>
    params.has('client_id') || /^Basic /i.test(authorization ?? '');
  const invalidClient = (): Reply => ({ status: 401, body: { error: 'invalid_client', error_description: 'Missing valid authorization header' } });

  /** The registered app making a token call, 'invalid' when its credentials are wrong, undefined when unregistered. */
  const clientOf = (params: URLSearchParams, authorization: string | undefined): XApp | 'invalid' | undefined => {
    const basic = /^Basic (.+)$/i.exec(authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return 'invalid';
      const id = decodeURIComponent(decoded.slice(0, colon));
      const secret = decodeURIComponent(decoded.slice(colon + 1));
      const app = world.apps.get(id);
      if (!app) return world.apps.size ? 'invalid' : undefined;
      return app.clientSecret === secret ? app : 'invalid';
    }
    return world.apps.get(params.get('client_id') ?? '');
  };

  const tokenBody = (accessToken: string, refreshToken: string | undefined, scopes: Iterable<string>) => ({
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECS,
    access_token: accessToken,
    scope: [...scopes].join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  });

  const codeGrant = (params: URLSearchParams, authorization: string | undefined): Reply => {
    const client = clientOf(params, authorization);
    if (client === 'invalid' || !client) return invalidClient();
    const code = params.get('code');
    const verifier = params.get('code_verifier');
    const redirectUri = params.get('redirect_uri');
    if (!code || !verifier || !redirectUri) return oauthError('invalid_request', 'Missing required parameter [code, redirect_uri or code_verifier].');
    const issued = world.codes.get(code);
    // A code is single-use whatever happens next.
    world.codes.delete(code);
    if (!issued || issued.clientId !== client.clientId || world.clock.now() - issued.issuedAtMs > CODE_TTL_MS) {
      return oauthError('invalid_grant', 'Value passed for the authorization code was invalid.');
    }
    if (issued.redirectUri !== redirectUri) return oauthError('invalid_grant', 'Value passed for the redirect uri did not match the uri of the authorization code.');
    const expected = issued.codeChallengeMethod === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
    if (expected !== issued.codeChallenge) return oauthError('invalid_grant', 'Value passed for the code verifier did not match the code challenge.');
    const scopes = new Set(issued.scopes);
    const pair = store.issueTokenPair(issued.userId, scopes);
    return { status: 200, body: tokenBody(pair.accessToken, pair.refreshToken, scopes) };
  };

  return [
    {
      method: 'GET',
      url: '/i/oauth2/authorize',
      handler: ({ query }) => {
        // Without a valid client and callback there is nowhere safe to send the user: X shows an error page.
        const app = world.apps.get(query.client_id ?? '');
        if (!app) return { status: 400, body: { error: 'invalid_request', error_description: 'Value passed for the client_id was invalid.' } };
        const redirectUri = query.redirect_uri ?? '';
        if (!app.callbackUrls.includes(redirectUri)) {
          return { status: 400, body: { error: 'invalid_request', error_description: 'Value passed for the redirect_uri did not match a callback URL of the app.' } };
        }
        const back = (params: Record<string, string>): Reply => {
          const url = new URL(redirectUri);
          for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
          if (query.state !== undefined) url.searchParams.set('state', query.state);
          return { status: 302, headers: { location: url.toString() } };
        };
        const scopes = (query.scope ?? '').split(' ').filter(Boolean);
        const method = query.code_challenge_method ?? 'plain';
        if (query.response_type !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
        if (!query.state || query.state.length > 500) return back({ error: 'invalid_request', error_description: 'state is required (at most 500 characters)' });
        if (!query.code_challenge || (method !== 'S256' && method !== 'plain')) return back({ error: 'invalid_request', error_description: 'code_challenge with code_challenge_method S256 or plain is required' });
        if (!scopes.length || scopes.some((s) => !KNOWN_SCOPES.has(s))) return back({ error: 'invalid_scope', error_description: 'Value passed for scope was invalid.' });
        const userId = world.signedInUserId;
        if (!userId || !store.users.has(userId)) return back({ error: 'access_denied', error_description: 'No user is signed in (emulator: call signIn()).' });
        const code = randomBytes(24).toString('base64url');
        world.codes.set(code, { clientId: app.clientId, redirectUri, codeChallenge: query.code_challenge, codeChallengeMethod: method, userId, scopes, issuedAtMs: world.clock.now() });
        return back({ code });
      },
    },
    {
      method: 'POST',
      url: '/2/oauth2/token',
      handler: ({ body, authorization }) => {
        const params = readForm(body);
        if (!hasClient(params, authorization)) return noClient;
        const grant = params.get('grant_type');
        if (grant === 'authorization_code') return codeGrant(params, authorization);
        if (grant !== 'refresh_token') return oauthError('unsupported_grant_type', `Grant type ${grant ?? ''} is not supported.`);
        // Refresh tokens registered with addUser() belong to no app; a registered app's secret is checked.
        if (clientOf(params, authorization) === 'invalid') return invalidClient();
        const rotated = store.rotateRefreshToken(params.get('refresh_token') ?? '');
        if (!rotated) return oauthError('invalid_request', 'Value passed for the token was invalid.');
        return { status: 200, body: tokenBody(rotated.accessToken, rotated.refreshToken, rotated.scopes) };
      },
    },
    {
      method: 'POST',
      url: '/2/oauth2/revoke',
      handler: ({ body, authorization }) => {
        const params = readForm(body);
        if (!hasClient(params, authorization)) return noClient;
        store.revoke(params.get('token') ?? '');
        return { status: 200, body: { revoked: true } };
      },
    },
  ];
}
