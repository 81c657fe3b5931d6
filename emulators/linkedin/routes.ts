// LinkedIn's routes: the consent page and token endpoint on www.linkedin.com (/oauth/v2/…) and the
// API on api.linkedin.com (/v2/userinfo, /rest/organizationAcls, /rest/organizations/{id}), all
// served at one origin. Handlers get plain inputs and return a Reply.
import type { Reply } from '../shared/http.ts';
import { rawBody } from '../shared/http.ts';
import { redirectBack, type IssuedToken } from '../shared/oauth.ts';
import {
  accessDenied, badCode, emptyToken, expiredToken, illegalArgument, invalidToken, nonexistentVersion, notFound, oauthError,
  revokedToken, versionMissing,
} from './errors.ts';
import type { LinkedInWorld } from './world.ts';

export interface RouteInput {
  query: Record<string, string | undefined>;
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

export interface Route {
  method: 'GET' | 'POST';
  url: string;
  handler(input: RouteInput): Reply;
}

const memberUrn = (sub: string) => `urn:li:person:${sub}`;
const orgUrn = (id: number) => `urn:li:organization:${id}`;

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

export function apiRoutes(world: LinkedInWorld): Route[] {
  /** The member behind the bearer token, or the 401 LinkedIn answers. */
  const authenticate = (headers: RouteInput['headers']): { sub: string; scopes: string[] } | Reply => {
    const match = /^Bearer\s+(\S*)$/i.exec(headers.authorization ?? '');
    if (!match || !match[1]) return emptyToken();
    const check = world.oauth.checkAccess(match[1]);
    if (!check.ok) return check.reason === 'revoked' ? revokedToken() : check.reason === 'expired' ? expiredToken() : invalidToken();
    return { sub: check.userId, scopes: check.scopes };
  };

  /** Versioned /rest/ calls: LinkedIn-Version YYYYMM (or YYYYMM.RR) must name a served version. */
  const checkVersion = (headers: RouteInput['headers']): Reply | undefined => {
    const version = headers['linkedin-version'];
    if (!version) return versionMissing();
    const match = /^(\d{6})(\.\d{2})?$/.exec(version);
    const now = new Date(world.clock.now());
    const current = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    if (!match || match[1]! < world.oldestVersion || match[1]! > current) return nonexistentVersion(version);
    return undefined;
  };

  const rest = (resource: string, scopes: string[], handler: (who: { sub: string; scopes: string[] }, input: RouteInput) => Reply) => (input: RouteInput): Reply => {
    const version = checkVersion(input.headers);
    if (version) return version;
    const who = authenticate(input.headers);
    if ('status' in who) return who;
    if (!scopes.some((s) => who.scopes.includes(s))) return accessDenied(resource);
    return handler(who, input);
  };

  return [
    {
      method: 'GET',
      url: '/v2/userinfo',
      handler: ({ headers }) => {
        const who = authenticate(headers);
        if ('status' in who) return who;
        if (!who.scopes.includes('openid')) return accessDenied('userinfo.GET.NO_VERSION');
        const member = world.members.get(who.sub);
        if (!member) return invalidToken();
        const profile = who.scopes.includes('profile');
        const email = who.scopes.includes('email') && member.email;
        return {
          status: 200,
          body: {
            sub: member.sub,
            ...(profile ? { name: member.name, given_name: member.givenName, family_name: member.familyName, locale: member.locale, ...(member.picture ? { picture: member.picture } : {}) } : {}),
            ...(email ? { email: member.email, email_verified: member.emailVerified } : {}),
          },
        };
      },
    },
    {
      method: 'GET',
      url: '/rest/organizationAcls',
      handler: rest('organizationAcls.FINDER-roleAssignee', ['rw_organization_admin', 'r_organization_admin'], (who, { query }) => {
        if (query.q !== 'roleAssignee') return illegalArgument(`Invalid query parameter q: ${query.q ?? '(missing)'}`);
        const start = Number(query.start ?? 0);
        const count = Number(query.count ?? 10);
        if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 0 || count > 100) return illegalArgument('Invalid paging parameters start/count');
        const all = world.roles.filter((r) => r.sub === who.sub && (!query.role || r.role === query.role) && (!query.state || r.state === query.state));
        const page = all.slice(start, start + count);
        return {
          status: 200,
          body: {
            paging: { start, count, links: start + count < all.length ? [{ rel: 'next', type: 'application/json', href: `/rest/organizationAcls?q=roleAssignee&start=${start + count}&count=${count}` }] : [], total: all.length },
            elements: page.map((r) => ({ roleAssignee: memberUrn(r.sub), state: r.state, role: r.role, organization: orgUrn(r.organizationId) })),
          },
        };
      }),
    },
    {
      method: 'GET',
      url: '/rest/organizations/:id',
      handler: rest('organizations.GET', ['rw_organization_admin', 'r_organization_admin'], (_who, { params }) => {
        if (!/^\d+$/.test(params.id ?? '')) return illegalArgument(`Invalid organization id: ${params.id}`);
        const org = world.organizations.get(Number(params.id));
        if (!org) return notFound(`Organization ${params.id} does not exist`);
        return {
          status: 200,
          body: {
            id: org.id,
            localizedName: org.localizedName,
            vanityName: org.vanityName,
            name: { localized: { en_US: org.localizedName }, preferredLocale: { country: 'US', language: 'en' } },
            ...(org.logoUrn ? { logoV2: { original: org.logoUrn, cropped: org.logoUrn, cropInfo: { x: 0, y: 0, width: 0, height: 0 } } } : {}),
            primaryOrganizationType: 'NONE',
            organizationType: 'PRIVATELY_HELD',
            versionTag: '1',
          },
        };
      }),
    },
  ];
}
