// Threads OAuth as Meta serves it:
// - GET /oauth/authorize (threads.com): the Authorization Window. Auto-consent for the user of
//   signIn(); comma-separated scopes; redirects with ?code&state and Meta's trailing "#_".
// - POST /oauth/access_token (graph.threads.net): code → short-lived token {access_token, user_id}.
//   Parameters from the form body (or the query string: Meta reads both).
// - GET /access_token?grant_type=th_exchange_token&client_secret&access_token: short → long-lived.
// - GET /refresh_access_token?grant_type=th_refresh_token&access_token: a long-lived token at least
//   24 h old and unexpired → a new one valid 60 days from now.
import { rawBody, type Reply } from '../../shared/http.ts';
import { redirectBack, type AccessGrant } from '../../shared/oauth.ts';
import {
  badClientSecret, expiredCode, expiredToken, invalidCode, invalidParameter, invalidToken, metaError, missingClientId,
  redirectMismatch, revokedToken, unknownApp, usedCode,
} from '../errors.ts';
import type { ThreadsWorld } from '../state.ts';
import type { ThreadsRoute } from './route.ts';

export const THREADS_SCOPES = new Set([
  'threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_manage_insights',
  'threads_manage_mentions', 'threads_keyword_search', 'threads_delete', 'threads_location_tagging', 'threads_profile_discovery',
]);

/** An access token as Meta checks it: 190 (with 463 when expired, 458 when the user removed the app). */
export function checkToken(world: ThreadsWorld, token: string | null | undefined): Reply | AccessGrant {
  const check = world.oauth.checkAccess(token);
  if (check.ok) return check;
  if (check.reason === 'expired') return expiredToken(check.expiresAtMs, world.clock.now());
  return check.reason === 'revoked' ? revokedToken() : invalidToken();
}

const isReply = (value: unknown): value is Reply => typeof value === 'object' && value !== null && 'status' in value;

export function oauthRoutes(world: ThreadsWorld): ThreadsRoute[] {
  const { oauth, clock } = world;
  /** th_exchange_token and th_refresh_token: a new long-lived token for a valid one. */
  const longLived = (token: string, grant: string): Reply => {
    const issued = oauth.exchangeAccess(token, world.settings.longLivedSecs, grant);
    if (issued === 'invalid') return invalidToken();
    world.longLived.add(issued.accessToken);
    return { status: 200, body: { access_token: issued.accessToken, token_type: 'bearer', expires_in: world.settings.longLivedSecs } };
  };

  return [
    {
      method: 'GET',
      url: '/oauth/authorize',
      handler: ({ query }) => {
        // Without a known app and a registered redirect URI Meta shows an error page and never redirects.
        if (!query.client_id) return missingClientId();
        const app = oauth.apps.get(query.client_id);
        if (!app) return unknownApp();
        const redirectUri = query.redirect_uri ?? '';
        if (!app.redirectUris.includes(redirectUri)) {
          return invalidParameter("URL Blocked: This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings.");
        }
        if (query.response_type !== 'code') return invalidParameter('Invalid response_type: only "code" is supported.');
        // Meta takes a comma-separated list (a URL-encoded space-separated one works too).
        const scopes = (query.scope ?? '').split(/[,\s]+/).filter(Boolean);
        const unknown = scopes.filter((s) => !THREADS_SCOPES.has(s));
        if (!scopes.length || unknown.length) return invalidParameter(`Invalid Scopes: ${unknown.join(', ') || '(none)'}`);
        const back = (params: Record<string, string>) => {
          const reply = redirectBack(redirectUri, params, query.state);
          // Meta appends "#_" to the redirect; browsers keep it, so clients must ignore it.
          return { ...reply, headers: { location: `${reply.headers.location}#_` } };
        };
        const user = oauth.signedInUser;
        if (!user || !world.users.has(user)) {
          return back({ error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error' });
        }
        const code = oauth.issueCode({ clientId: app.clientId, redirectUri, scopes });
        return back({ code: code! });
      },
    },
    {
      method: 'POST',
      url: '/oauth/access_token',
      handler: ({ query, body }) => {
        const form = new URLSearchParams(rawBody(body).toString('utf8'));
        const param = (name: string) => form.get(name) ?? query[name] ?? null;
        const clientId = param('client_id');
        if (!clientId) return missingClientId();
        const client = oauth.checkClient(clientId, param('client_secret'));
        if (!client) return unknownApp();
        if (client === 'invalid') return badClientSecret();
        if (param('grant_type') !== 'authorization_code') return invalidParameter('Invalid grant_type: this endpoint only accepts authorization_code.');
        const code = (param('code') ?? '').replace(/#_$/, '');
        if (!code) return invalidParameter('Missing authorization code');
        const redeemed = oauth.redeemCode({ clientId, code, redirectUri: param('redirect_uri') ?? '' });
        if (redeemed === 'used_code') return usedCode();
        if (redeemed === 'expired_code') return expiredCode();
        if (redeemed === 'redirect_mismatch') return redirectMismatch();
        if (typeof redeemed === 'string') return invalidCode();
        // user_id is a JSON number, as Meta sends it.
        return { status: 200, body: { access_token: redeemed.accessToken, user_id: Number(redeemed.userId) } };
      },
    },
    {
      method: 'GET',
      url: '/access_token',
      handler: ({ query }) => {
        if (query.grant_type !== 'th_exchange_token') return invalidParameter('Unsupported grant_type: expected th_exchange_token.');
        if (!query.client_secret) return invalidParameter('Missing client_secret parameter.');
        const token = checkToken(world, query.access_token);
        if (isReply(token)) return token;
        if (oauth.apps.get(token.clientId)?.clientSecret !== query.client_secret) return badClientSecret();
        return longLived(query.access_token!, 'th_exchange_token');
      },
    },
    {
      method: 'GET',
      url: '/refresh_access_token',
      handler: ({ query }) => {
        if (query.grant_type !== 'th_refresh_token') return invalidParameter('Unsupported grant_type: expected th_refresh_token.');
        const token = checkToken(world, query.access_token);
        if (isReply(token)) return token;
        // Meta's texts for these two refusals are not documented; code 100 (invalid parameter) is what the
        // emulator answers: the token is still valid, the refresh is merely premature or misdirected.
        if (!world.longLived.has(query.access_token!)) return metaError('Only long-lived Threads user access tokens can be refreshed.', 100);
        if (clock.now() - token.issuedAtMs < world.settings.minRefreshAgeSecs * 1000) {
          return metaError('The access token must be at least 24 hours old to be refreshed.', 100);
        }
        return longLived(query.access_token!, 'th_refresh_token');
      },
    },
  ];
}
