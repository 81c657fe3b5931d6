// The connect flow (developer.vimeo.com/api/authentication): the authorize page (auto-consent for the
// signed-in member) and the authorization-code exchange at POST /oauth/access_token (HTTP Basic client
// credentials, JSON body; the answer carries the user). Vimeo user tokens do not expire and come
// without a refresh token.
import { basicCredentials, redirectBack } from '../../shared/oauth.ts';
import { isPlainObject, jsonBody } from '../../shared/http.ts';
import { tokenError, vimeoError } from '../errors.ts';
import { userJson } from '../objects.ts';
import { queryOf } from '../validate.ts';
import type { VimeoContext, VimeoRoute } from './context.ts';

/** Scopes Vimeo's authorize page knows (developer.vimeo.com/api/authentication, scopes table). */
export const VIMEO_KNOWN_SCOPES = new Set([
  'public', 'private', 'purchased', 'create', 'edit', 'delete', 'interact', 'upload', 'promo_codes', 'video_files', 'stats', 'email',
]);

export function oauthRoutes(ctx: VimeoContext): VimeoRoute[] {
  const { oauth, users } = ctx;
  return [
    {
      method: 'GET', url: '/oauth/authorize', handler: (req) => {
        const q = queryOf(req);
        // Without a registered client and its exact redirect URI there is nowhere safe to send the user: Vimeo shows an error page.
        const client = oauth.apps.get(q.client_id ?? '');
        if (!client) return vimeoError(400, 2002, 'The client_id is invalid.', 'No app has this client_id.');
        const redirectUri = q.redirect_uri ?? '';
        if (!client.redirectUris.includes(redirectUri)) {
          return vimeoError(400, 2002, 'The redirect_uri is invalid.', 'The redirect_uri must match one of the app\'s callback URLs exactly.');
        }
        const back = (params: Record<string, string>) => redirectBack(redirectUri, params, q.state);
        if (q.response_type !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
        if (!q.state) return back({ error: 'invalid_request', error_description: 'state is required' });
        const scopes = (q.scope ?? 'public').split(/[\s+]+/).filter(Boolean);
        if (scopes.some((s) => !VIMEO_KNOWN_SCOPES.has(s))) return back({ error: 'invalid_scope', error_description: 'An unknown scope was requested.' });
        const userId = oauth.signedInUser;
        if (!userId || !users.has(userId)) return back({ error: 'access_denied', error_description: 'The user denied the request.' });
        const code = oauth.issueCode({ clientId: client.clientId, redirectUri, scopes });
        return back({ code: code! });
      },
    },
    {
      method: 'POST', url: '/oauth/access_token', handler: (req) => {
        const basic = basicCredentials(req.headers.authorization);
        const client = basic && oauth.checkClient(basic.id, basic.secret);
        if (!client || client === 'invalid') {
          return tokenError(401, 'invalid_client', 'A valid client ID and secret must be provided with HTTP Basic authentication.');
        }
        // Vimeo documents this call with a JSON body; the emulator takes nothing else (see README).
        const body = /^application\/json\b/i.test(req.headers['content-type'] ?? '') ? jsonBody(req.body) : undefined;
        if (!isPlainObject(body)) return tokenError(400, 'invalid_request', 'The request body must be a JSON object (Content-Type: application/json).');
        if (body.grant_type !== 'authorization_code') return tokenError(400, 'unsupported_grant_type', 'grant_type must be authorization_code.');
        if (typeof body.code !== 'string' || !body.code) return tokenError(400, 'invalid_request', 'Invalid authorization code');
        const issued = oauth.redeemCode({ clientId: client.clientId, code: body.code, redirectUri: typeof body.redirect_uri === 'string' ? body.redirect_uri : '' });
        if (issued === 'redirect_mismatch') return tokenError(400, 'invalid_request', 'The redirect_uri does not match the one of the authorization request.');
        if (typeof issued === 'string') return tokenError(400, 'invalid_request', 'Invalid authorization code');
        const user = users.get(issued.userId)!;
        return {
          status: 200,
          body: {
            access_token: issued.accessToken,
            token_type: 'bearer',
            scope: issued.scopes.join(' '),
            user: userJson(user, ctx.store),
            app: { name: `App ${client.clientId}`, uri: `/apps/${client.clientId}` },
          },
        };
      },
    },
  ];
}
