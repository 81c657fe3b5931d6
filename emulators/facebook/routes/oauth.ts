// Facebook Login: the OAuth dialog GET /{v}/dialog/oauth on www.facebook.com (auto-consent for the
// signed-in user; a switch makes the user decline) and GET|POST /{v}/oauth/access_token on
// graph.facebook.com: the code grant (client_id, client_secret, redirect_uri, code as query
// parameters) giving a short-lived user token, and grant_type=fb_exchange_token giving the
// long-lived one. There is no refresh grant.
import { redirectBack } from '../../shared/oauth.ts';
import type { Reply } from '../../shared/http.ts';
import {
  dialogInvalidApp, dialogInvalidConfiguration, dialogInvalidScopes, dialogRedirectNotAllowed, expiredCode, graphError, invalidAppId, invalidClientSecret,
  invalidCode, missingParameter, redirectMismatch, unsupportedGrant, usedCode,
} from '../errors/graph.ts';
import { authenticate, isReply, type FbRoute, type FbWorld } from './context.ts';

/** Permissions the dialog knows (Pages, Instagram with Facebook Login, and the basic ones). */
export const KNOWN_SCOPES = new Set([
  'public_profile', 'email', 'pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement',
  'pages_read_user_content', 'pages_manage_metadata', 'pages_messaging', 'publish_video', 'business_management',
  'read_insights', 'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments', 'instagram_manage_messages',
  'instagram_manage_insights', 'instagram_manage_contents',
]);

export function oauthRoutes(world: FbWorld): FbRoute[] {
  const { oauth, store } = world;

  const tokenBody = (accessToken: string, expiresIn: number | null): Reply => ({
    status: 200,
    body: { access_token: accessToken, token_type: 'bearer', ...(expiresIn !== null ? { expires_in: expiresIn } : {}) },
  });

  return [
    {
      method: 'GET',
      url: '/dialog/oauth',
      versioned: true,
      handler: ({ query }) => {
        // Without a valid app and a registered redirect URI there is nowhere safe to go: an error page.
        const app = oauth.apps.get(query.client_id ?? '');
        if (!app) return dialogInvalidApp();
        const redirectUri = query.redirect_uri ?? '';
        if (!app.redirectUris.includes(redirectUri)) return dialogRedirectNotAllowed();
        // Facebook Login for Business: a configuration replaces the scopes (it names the permissions).
        const configuration = query.config_id === undefined ? undefined : world.loginConfigurations.get(query.config_id);
        if (query.config_id !== undefined && configuration?.clientId !== app.clientId) return dialogInvalidConfiguration();
        const scopes = configuration ? configuration.scopes : (query.scope ?? '').split(/[,\s]+/).filter(Boolean);
        const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
        if (unknown.length) return dialogInvalidScopes(unknown);
        if (query.response_type !== undefined && query.response_type !== 'code') {
          return graphError({ message: `Invalid response_type: ${query.response_type}`, code: 100 });
        }
        // Meta appends "#_" to the redirect it sends the browser to.
        const back = (params: Record<string, string>): Reply => {
          const out = redirectBack(redirectUri, params, query.state);
          return { ...out, headers: { location: `${out.headers.location}#_` } };
        };
        if (world.decline) return back({ error: 'access_denied', error_code: '200', error_description: 'Permissions error', error_reason: 'user_denied' });
        const signedIn = oauth.signedInUser;
        const code = signedIn && store.users.has(signedIn) ? oauth.issueCode({ clientId: app.clientId, redirectUri, scopes }) : undefined;
        if (!code) return back({ error: 'access_denied', error_reason: 'user_denied', error_description: 'No user is signed in (emulator: call signIn()).' });
        return back({ code });
      },
    },
    ...(['GET', 'POST'] as const).map((method): FbRoute => ({
      method,
      url: '/oauth/access_token',
      versioned: true,
      handler: (req) => {
        const q = req.query;
        if (!q.client_id) return graphError({ message: 'Missing client_id parameter.', code: 101, authenticate: 'invalid_request' });
        const client = oauth.checkClient(q.client_id, q.client_secret);
        if (!client) return invalidAppId();
        if (client === 'invalid') return invalidClientSecret();
        const grant = q.grant_type;

        if (grant === 'fb_exchange_token') {
          if (!q.fb_exchange_token) return missingParameter('fb_exchange_token');
          const info = authenticate(world, { ...req, query: {}, token: q.fb_exchange_token });
          if (isReply(info)) return info;
          if (info.kind !== 'user' || info.clientId !== client.clientId) return graphError({ message: 'Invalid OAuth access token - Cannot parse access token', code: 190, authenticate: 'invalid_token' });
          const issued = oauth.exchangeAccess(q.fb_exchange_token, world.longLivedSecs, 'fb_exchange_token');
          if (issued === 'invalid') return graphError({ message: 'Invalid OAuth access token - Cannot parse access token', code: 190, authenticate: 'invalid_token' });
          store.record(issued.accessToken, { kind: 'user', userId: info.userId, clientId: client.clientId, longLived: true });
          return tokenBody(issued.accessToken, world.longLivedSecs);
        }
        if (grant !== undefined && grant !== 'authorization_code') return unsupportedGrant(grant);
        if (!q.redirect_uri) return missingParameter('redirect_uri');
        if (!q.code) return missingParameter('code');
        const issued = oauth.redeemCode({ clientId: client.clientId, code: q.code, redirectUri: q.redirect_uri });
        if (issued === 'used_code') return usedCode();
        if (issued === 'expired_code') return expiredCode();
        if (issued === 'redirect_mismatch') return redirectMismatch();
        if (typeof issued === 'string') return invalidCode();
        store.record(issued.accessToken, { kind: 'user', userId: issued.userId, clientId: client.clientId, longLived: false });
        return tokenBody(issued.accessToken, issued.expiresIn);
      },
    })),
  ];
}
