// POST /2/oauth2/token (refresh_token grant, rotating refresh tokens) and POST /2/oauth2/revoke.
// Both take form-encoded bodies; the client id comes from the body (public clients) or from
// Basic authentication (confidential clients). The interactive authorization-code leg is out of
// scope: tests register tokens with addUser().
import { rawBody } from '../../shared/http.ts';
import { oauthError } from '../errors.ts';
import type { XPublicRoute, XWorld } from '../route.ts';
import { ACCESS_TOKEN_SECS } from '../store.ts';

export function oauthRoutes(world: XWorld): XPublicRoute[] {
  const { store } = world;
  const readForm = (body: unknown) => new URLSearchParams(rawBody(body).toString('utf8'));
  const noClient = oauthError('unauthorized_client', 'Missing valid authorization header');
  const hasClient = (params: URLSearchParams, authorization: string | undefined) =>
    params.has('client_id') || /^Basic /i.test(authorization ?? '');
  return [
    {
      method: 'POST',
      url: '/2/oauth2/token',
      handler: ({ body, authorization }) => {
        const params = readForm(body);
        if (!hasClient(params, authorization)) return noClient;
        const grant = params.get('grant_type');
        if (grant !== 'refresh_token') return oauthError('unsupported_grant_type', `Grant type ${grant ?? ''} is not supported.`);
        const rotated = store.rotateRefreshToken(params.get('refresh_token') ?? '');
        if (!rotated) return oauthError('invalid_request', 'Value passed for the token was invalid.');
        return {
          status: 200,
          body: {
            token_type: 'bearer',
            expires_in: ACCESS_TOKEN_SECS,
            access_token: rotated.accessToken,
            scope: [...rotated.scopes].join(' '),
            refresh_token: rotated.refreshToken,
          },
        };
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
