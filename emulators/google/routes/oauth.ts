// Google's OAuth 2.0 web-server flow: the consent page GET /o/oauth2/v2/auth (auto-consent for the
// signed-in user), POST /token (authorization_code with optional PKCE, refresh_token without
// rotation) and POST /revoke. A refresh token is issued only for access_type=offline when a consent
// screen was shown (prompt=consent, or scopes this app was not granted before), as Google does.
// Every value of each parameter is read: RFC 6749 (§3.1) forbids sending one twice, so a repeated
// parameter is refused with invalid_request (§4.1.2.1, §5.2) rather than quietly taking the first.
import { basicCredentials, redirectBack, type IssuedToken } from '../../shared/oauth.ts';
import { rawBody, type Reply } from '../../shared/http.ts';
import { oauthError } from '../errors.ts';
import { consentKey, type GoogleWorld } from '../state/world.ts';
import { firstRepeated, onlyValues, valuesOf } from '../validate/query.ts';
import type { GoogleRoute } from './route.ts';

export const KNOWN_SCOPES = new Set([
  'openid', 'email', 'profile',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
  'https://www.googleapis.com/auth/youtube',
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.force-ssl',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtubepartner',
  'https://www.googleapis.com/auth/business.manage',
  'https://www.googleapis.com/auth/plus.business.manage',
]);
const PROMPTS = new Set(['none', 'consent', 'select_account']);

/** Google's error page for a request it cannot send back to the app (no redirect). */
function errorPage(status: number, error: string, detail: string): Reply {
  const html = `<!doctype html><html><head><title>Error ${status} (OAuth 2.0)</title></head><body>`
    + `<h1>Access blocked: authorization error</h1><p>${escapeHtml(detail)}</p><p>Error ${status}: ${escapeHtml(error)}</p></body></html>`;
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Form bodies (what clients send) and JSON bodies (Google accepts both). */
function readParams(body: unknown, contentType: string | undefined): URLSearchParams {
  const text = rawBody(body).toString('utf8');
  if (/^application\/json/i.test(contentType ?? '')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      return new URLSearchParams(Object.entries(parsed).filter(([, v]) => typeof v === 'string') as [string, string][]);
    } catch {
      return new URLSearchParams();
    }
  }
  return new URLSearchParams(text);
}

export function oauthRoutes(world: GoogleWorld): GoogleRoute[] {
  const { oauth } = world;

  const tokenBody = (issued: IssuedToken): Reply => {
    world.grants.set(issued.accessToken, { userId: issued.userId, clientId: issued.clientId, kind: 'access' });
    if (issued.refreshToken) world.grants.set(issued.refreshToken, { userId: issued.userId, clientId: issued.clientId, kind: 'refresh' });
    return {
      status: 200,
      headers: { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate', pragma: 'no-cache' },
      body: {
        access_token: issued.accessToken,
        expires_in: issued.expiresIn,
        ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
        scope: issued.scopes.join(' '),
        token_type: 'Bearer',
      },
    };
  };

  /** Drops the refresh token of an answer (and kills it at the server, so it cannot be guessed into use). */
  const withoutRefresh = (issued: IssuedToken): IssuedToken => {
    if (issued.refreshToken) oauth.revoke(issued.refreshToken);
    return { ...issued, refreshToken: undefined, refreshExpiresIn: null };
  };

  const authorize: GoogleRoute['handler'] = ({ query: values }) => {
    const repeated = firstRepeated(values);
    if (repeated) return errorPage(400, 'invalid_request', `Parameter given more than once: ${repeated}`);
    const query = onlyValues(values);
    const app = oauth.apps.get(query.client_id ?? '');
    if (!query.client_id) return errorPage(400, 'invalid_request', 'Missing required parameter: client_id');
    if (!app) return errorPage(401, 'invalid_client', 'The OAuth client was not found.');
    const redirectUri = query.redirect_uri ?? '';
    if (!redirectUri) return errorPage(400, 'invalid_request', 'Missing required parameter: redirect_uri');
    if (!app.redirectUris.includes(redirectUri)) {
      return errorPage(400, 'redirect_uri_mismatch', `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. Request details: redirect_uri=${redirectUri}`);
    }
    if (query.response_type !== 'code') return errorPage(400, 'unsupported_response_type', `Invalid response_type: ${query.response_type ?? ''}`);
    const requested = [...new Set((query.scope ?? '').split(/\s+/).filter(Boolean))];
    if (!requested.length) return errorPage(400, 'invalid_request', 'Missing required parameter: scope');
    const invalid = requested.filter((s) => !KNOWN_SCOPES.has(s));
    if (invalid.length) return errorPage(400, 'invalid_scope', `Some requested scopes were invalid. {invalid=[${invalid.join(', ')}]}`);
    const accessType = query.access_type ?? 'online';
    if (accessType !== 'online' && accessType !== 'offline') return errorPage(400, 'invalid_request', `Invalid access_type: ${accessType}`);
    const prompts = (query.prompt ?? '').split(/\s+/).filter(Boolean);
    if (prompts.some((p) => !PROMPTS.has(p)) || (prompts.includes('none') && prompts.length > 1)) return errorPage(400, 'invalid_request', `Invalid prompt: ${query.prompt}`);
    const method = query.code_challenge_method ?? (query.code_challenge ? 'plain' : undefined);
    if (method !== undefined && (!query.code_challenge || (method !== 'S256' && method !== 'plain'))) {
      return errorPage(400, 'invalid_request', 'Invalid code_challenge_method or missing code_challenge');
    }
    if (query.code_challenge !== undefined && !/^[A-Za-z0-9._~-]{43,128}$/.test(query.code_challenge)) {
      return errorPage(400, 'invalid_request', 'Invalid code_challenge');
    }

    const back = (params: Record<string, string>) => redirectBack(redirectUri, params, query.state);
    const userId = oauth.signedInUser;
    if (!userId || !world.store.users.has(userId)) {
      return back(prompts.includes('none') ? { error: 'login_required' } : { error: 'access_denied', error_description: 'No user is signed in (emulator: call signIn()).' });
    }
    const key = consentKey(userId, app.clientId);
    const previously = world.consents.get(key) ?? new Set<string>();
    const consentScreen = prompts.includes('consent') || requested.some((s) => !previously.has(s));
    if (prompts.includes('none') && consentScreen) return back({ error: 'consent_required' });

    // Granular consent: the user may untick scopes; unticking all of them is a refusal.
    const declined = consentScreen ? world.declineNext : new Set<string>();
    if (consentScreen) world.declineNext = new Set();
    const grantedNow = requested.filter((s) => !declined.has(s));
    if (!grantedNow.length) return back({ error: 'access_denied' });
    const allGranted = new Set([...previously, ...grantedNow]);
    world.consents.set(key, allGranted);
    const scopes = query.include_granted_scopes === 'true' ? [...allGranted] : grantedNow;

    // Only access_type=offline on a consent screen gives a refresh token.
    const withRefresh = accessType === 'offline' && consentScreen;
    const code = oauth.issueCode({ clientId: app.clientId, redirectUri, scopes, codeChallenge: query.code_challenge, codeChallengeMethod: method, withRefresh });
    if (!code) return back({ error: 'access_denied' });
    return back({ code, scope: scopes.join(' '), authuser: '0', prompt: consentScreen ? 'consent' : 'none' });
  };

  const token: GoogleRoute['handler'] = ({ body, headers }) => {
    const params = readParams(body, headers['content-type']);
    const repeated = firstRepeated(valuesOf(params));
    if (repeated) return oauthError(400, 'invalid_request', `Parameter given more than once: ${repeated}`);
    const basic = basicCredentials(headers.authorization);
    const clientId = params.get('client_id') ?? basic?.id;
    const clientSecret = params.get('client_secret') ?? basic?.secret;
    if (!clientId) return oauthError(400, 'invalid_request', 'Could not determine client ID from request.');
    const client = oauth.checkClient(clientId, clientSecret);
    if (!client) return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    if (client === 'invalid') return oauthError(401, 'invalid_client', 'Unauthorized');
    const grant = params.get('grant_type') ?? '';

    if (grant === 'authorization_code') {
      const code = params.get('code');
      if (!code) return oauthError(400, 'invalid_request', 'Missing required parameter: code');
      const redirectUri = params.get('redirect_uri');
      if (!redirectUri) return oauthError(400, 'invalid_request', 'Missing parameter: redirect_uri');
      const verifier = params.get('code_verifier');
      const issued = oauth.redeemCode({ clientId, code, redirectUri, codeVerifier: verifier });
      if (issued === 'redirect_mismatch') return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
      if (issued === 'verifier_mismatch') return oauthError(400, 'invalid_grant', verifier ? 'Invalid code verifier.' : 'Missing code verifier.');
      // A used, expired or unknown code, or one issued to another client.
      if (typeof issued === 'string') return oauthError(400, 'invalid_grant', 'Bad Request');
      const omit = world.omitNextRefresh;
      world.omitNextRefresh = false;
      return tokenBody(omit ? withoutRefresh(issued) : issued);
    }

    if (grant === 'refresh_token') {
      const refreshToken = params.get('refresh_token');
      if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing required parameter: refresh_token');
      world.omitNextRefresh = false;
      const issued = oauth.refresh(clientId, refreshToken);
      if (issued === 'invalid') return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      return tokenBody(issued);
    }

    return oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grant}`);
  };

  const revoke: GoogleRoute['handler'] = ({ query, body, headers }) => {
    const form = valuesOf(readParams(body, headers['content-type']));
    const repeated = firstRepeated(query) ?? firstRepeated(form);
    if (repeated) return oauthError(400, 'invalid_request', `Parameter given more than once: ${repeated}`);
    const token = query.token?.[0] ?? form.token?.[0] ?? '';
    const grant = world.grants.get(token);
    const expiredAccess = oauth.checkAccess(token).ok === false && grant?.kind === 'access';
    if (!grant || world.revokedTokens.has(token) || expiredAccess) return oauthError(400, 'invalid_token', 'Token expired or revoked');
    revokeGrant(world, grant.userId, grant.clientId);
    return { status: 200, body: {} };
  };

  return [
    { method: 'GET', url: '/o/oauth2/v2/auth', handler: authorize },
    { method: 'POST', url: '/token', handler: token },
    { method: 'POST', url: '/revoke', handler: revoke },
  ];
}

/** Revoking any token of a grant revokes all of it, and the app's consent with it. */
export function revokeGrant(world: GoogleWorld, userId: string, clientId: string): void {
  for (const [token, grant] of world.grants) {
    if (grant.userId !== userId || grant.clientId !== clientId) continue;
    world.oauth.revoke(token);
    world.revokedTokens.add(token);
  }
  world.consents.delete(consentKey(userId, clientId));
}
