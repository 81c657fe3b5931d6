// An instance's OAuth (Mastodon runs Doorkeeper): apps registered by anyone with POST /api/v1/apps
// (https://docs.joinmastodon.org/methods/apps/#create, the Application entity:
// https://docs.joinmastodon.org/entities/Application/), the authorize page GET /oauth/authorize
// (https://docs.joinmastodon.org/methods/oauth/#authorize; auto-consent: it redirects at once on behalf
// of the account selected with signIn()), and POST /oauth/token's authorization_code grant with PKCE
// (https://docs.joinmastodon.org/methods/oauth/#token; the Token entity:
// https://docs.joinmastodon.org/entities/Token/). The token it issues works on the API for that
// account with the scopes granted (state.ts `issuedTokens`). Scopes: https://docs.joinmastodon.org/api/oauth-scopes/.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { basicCredentials } from '../../shared/oauth.ts';
import { firstValues, send, type Reply } from '../../shared/http.ts';
import { unprocessable } from '../errors.ts';
import type { MastodonWorld } from '../state.ts';
import { paramsOf, str, strings } from '../validate.ts';

/** Every scope https://docs.joinmastodon.org/api/oauth-scopes/ lists (admin ones left out). */
const GRANULAR = {
  read: ['accounts', 'blocks', 'bookmarks', 'favourites', 'filters', 'follows', 'lists', 'mutes', 'notifications', 'search', 'statuses'],
  write: ['accounts', 'blocks', 'bookmarks', 'conversations', 'favourites', 'filters', 'follows', 'lists', 'media', 'mutes', 'notifications', 'reports', 'statuses'],
};
const KNOWN_SCOPES = new Set(['read', 'write', 'follow', 'push', 'profile', ...GRANULAR.read.map((s) => `read:${s}`), ...GRANULAR.write.map((s) => `write:${s}`)]);

/** Doorkeeper's authorization codes live 10 minutes (its default, which Mastodon keeps). */
const CODE_TTL_MS = 10 * 60_000;

export interface RegisteredApp {
  id: string;
  name: string;
  website: string | null;
  redirectUris: string[];
  scopes: string[];
  clientId: string;
  clientSecret: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  accountId: string;
  scopes: string[];
  codeChallenge: string | null;
  issuedAtMs: number;
}

export interface MastodonOAuthControls {
  /** The account that consents on GET /oauth/authorize (auto-consent); undefined: nobody is signed in, it answers access_denied. */
  signIn(accountId: string | undefined): void;
  /** The apps registered with POST /api/v1/apps, oldest first. */
  apps(): RegisteredApp[];
  /** An admin removed the app: its tokens stop working and /oauth/token answers invalid_client. */
  removeApp(clientId: string): void;
}

// Doorkeeper's error texts (config/locales/doorkeeper.en.yml, as Mastodon answers them).
const INVALID_GRANT = 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';
const INVALID_CLIENT = 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.';
const INVALID_REQUEST = 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.';
const INVALID_SCOPE = 'The requested scope is invalid, unknown, or malformed.';
const oauthError = (status: number, error: string, description: string): Reply => ({ status, body: { error, error_description: description } });

/** A scope asked for is within the app's: itself, or its top-level one (`write` covers `write:statuses`). */
const covered = (scopes: string[], scope: string) => scopes.includes(scope) || scopes.includes(scope.split(':')[0]!);

const scopeList = (value: unknown) => (str(value) ?? '').split(/[\s+]+/).filter(Boolean);

function isAbsoluteUri(value: string): boolean {
  if (value === 'urn:ietf:wg:oauth:2.0:oob') return true;
  try {
    return Boolean(new URL(value).protocol) && !new URL(value).hash;
  } catch {
    return false;
  }
}

export function mastodonOAuthRoutes(app: FastifyInstance, world: MastodonWorld): MastodonOAuthControls {
  const apps = new Map<string, RegisteredApp>();
  const codes = new Map<string, IssuedCode>();
  const issued = (world.issuedTokens ??= new Map());
  let signedIn: string | undefined;

  app.post('/api/v1/apps', async (req, reply) => {
    const params = await paramsOf(req.body, req.headers['content-type']);
    if (!params) return send(reply, unprocessable('Validation failed: the request body could not be read'));
    return send(reply, registerApp(apps, params.values));
  });

  app.get('/oauth/authorize', (req, reply) => send(reply, authorize(apps, codes, world, signedIn, firstValues(req.query))));

  app.post('/oauth/token', async (req, reply) => {
    const params = await paramsOf(req.body, req.headers['content-type']);
    const values = params?.values ?? {};
    const basic = basicCredentials(req.headers.authorization);
    const clientId = basic?.id ?? str(values.client_id);
    const clientSecret = basic?.secret ?? str(values.client_secret);
    const client = apps.get(clientId ?? '');
    if (!client || client.clientSecret !== clientSecret) return send(reply, oauthError(401, 'invalid_client', INVALID_CLIENT));
    if (str(values.grant_type) !== 'authorization_code') return send(reply, oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.'));
    const out = redeem(codes, world, client, values);
    if ('error' in out) return send(reply, out.error);
    issued.set(out.token, { accountId: out.accountId, scopes: out.scopes, clientId: client.clientId });
    return send(reply, { status: 200, body: { access_token: out.token, token_type: 'Bearer', scope: out.scopes.join(' '), created_at: Math.floor(world.clock.now() / 1000) } });
  });

  return {
    signIn: (accountId) => { signedIn = accountId; },
    apps: () => [...apps.values()].map((a) => structuredClone(a)),
    removeApp(clientId) {
      apps.delete(clientId);
      for (const [token, grant] of issued) if (grant.clientId === clientId) issued.delete(token);
    },
  };
}

/** POST /api/v1/apps: client_name and redirect_uris required (a string, or an array since 4.3), scopes default `read`. */
function registerApp(apps: Map<string, RegisteredApp>, values: Record<string, unknown>): Reply {
  const name = str(values.client_name)?.trim();
  const raw = values.redirect_uris;
  const redirectUris = (Array.isArray(raw) ? strings(raw) : (str(raw) ?? '').split('\n')).map((u) => u.trim()).filter(Boolean);
  const scopes = values.scopes === undefined ? ['read'] : scopeList(values.scopes);
  const website = str(values.website)?.trim() || null;
  if (!name) return unprocessable("Validation failed: Application name can't be blank");
  if (name.length > 60) return unprocessable('Validation failed: Application name is too long (maximum is 60 characters)');
  if (!redirectUris.length) return unprocessable("Validation failed: Redirect URI can't be blank");
  if (!redirectUris.every(isAbsoluteUri)) return unprocessable('Validation failed: Redirect URI must be an absolute URI.');
  if (!scopes.length || !scopes.every((s) => KNOWN_SCOPES.has(s))) return unprocessable('Validation failed: Scopes must be a list of known scopes');
  if (website && !/^https?:\/\/\S+$/i.test(website)) return unprocessable('Validation failed: Website is invalid');
  const registered: RegisteredApp = {
    id: String(apps.size + 1), name, website, redirectUris, scopes,
    clientId: randomBytes(32).toString('base64url'), clientSecret: randomBytes(32).toString('base64url'),
  };
  apps.set(registered.clientId, registered);
  return {
    status: 200,
    body: {
      id: registered.id, name, website, scopes, redirect_uris: redirectUris, redirect_uri: redirectUris.join('\n'),
      client_id: registered.clientId, client_secret: registered.clientSecret, client_secret_expires_at: 0,
    },
  };
}

/**
 * GET /oauth/authorize. Without a known client and one of its redirect URIs there is nowhere safe to
 * send the user: Doorkeeper shows an error page (here a 400 with the error). Otherwise every problem,
 * and the consent, go back to redirect_uri with `state`.
 */
function authorize(apps: Map<string, RegisteredApp>, codes: Map<string, IssuedCode>, world: MastodonWorld, signedIn: string | undefined, query: Record<string, string | undefined>): Reply {
  const client = apps.get(query.client_id ?? '');
  if (!client) return oauthError(400, 'invalid_client', INVALID_CLIENT);
  const redirectUri = query.redirect_uri ?? '';
  if (!client.redirectUris.includes(redirectUri)) return oauthError(400, 'invalid_redirect_uri', 'The requested redirect uri is malformed or doesn\'t match client redirect URI.');
  const back = (params: Record<string, string>): Reply => {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    if (query.state !== undefined) url.searchParams.set('state', query.state);
    return { status: 302, headers: { location: url.toString() } };
  };
  const scopes = query.scope === undefined ? ['read'] : scopeList(query.scope);
  if (query.response_type !== 'code') return back({ error: 'unsupported_response_type', error_description: 'The authorization server does not support this response type.' });
  if (!scopes.length || !scopes.every((s) => KNOWN_SCOPES.has(s) && covered(client.scopes, s))) return back({ error: 'invalid_scope', error_description: INVALID_SCOPE });
  // PKCE is optional; Mastodon takes S256 only (https://docs.joinmastodon.org/methods/oauth/#authorize).
  if (query.code_challenge !== undefined && query.code_challenge_method !== 'S256') return back({ error: 'invalid_request', error_description: INVALID_REQUEST });
  const account = signedIn === undefined ? undefined : world.accounts.get(signedIn);
  if (!account) return back({ error: 'access_denied', error_description: 'The resource owner or authorization server denied the request.' });
  const code = randomBytes(32).toString('base64url');
  codes.set(code, { clientId: client.clientId, redirectUri, accountId: account.id, scopes, codeChallenge: query.code_challenge ?? null, issuedAtMs: world.clock.now() });
  return back({ code });
}

/** The authorization_code grant: the code is single-use whatever happens, bound to its client, redirect URI and PKCE challenge. */
function redeem(codes: Map<string, IssuedCode>, world: MastodonWorld, client: RegisteredApp, values: Record<string, unknown>): { token: string; accountId: string; scopes: string[] } | { error: Reply } {
  const code = str(values.code);
  if (!code || !str(values.redirect_uri)) return { error: oauthError(400, 'invalid_request', INVALID_REQUEST) };
  const record = codes.get(code);
  codes.delete(code);
  const refused = { error: oauthError(400, 'invalid_grant', INVALID_GRANT) };
  if (!record || record.clientId !== client.clientId || world.clock.now() - record.issuedAtMs > CODE_TTL_MS) return refused;
  if (record.redirectUri !== str(values.redirect_uri)) return refused;
  if (record.codeChallenge !== null) {
    const verifier = str(values.code_verifier) ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== record.codeChallenge) return refused;
  }
  return { token: randomBytes(32).toString('base64url'), accountId: record.accountId, scopes: record.scopes };
}
