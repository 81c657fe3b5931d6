// LinkedIn OAuth 2.0 (3-legged authorization code, client credentials in the form): the member
// (OpenID userinfo) and the organizations they may post for (versioned /rest/organizationAcls) are
// offered to pick from, all publishing with the member's token. Access tokens live 60 days;
// refresh tokens exist only for apps LinkedIn approved for programmatic refresh (365 days, not
// rotated, not extended): without one the account is reconnected when the token expires.
import type { ApiVersion } from '../contract.ts';
import { apiError, FORM, formBody, networkHosts, OAuthError, oauthCall, standardTokenError, standardTokens, withQuery, type ConnectCandidate, type NetworkOAuth, type OAuthApp, type OAuthResponse, type OAuthTokens } from '../oauth.ts';

/**
 * The scopes a connect asks for by default, by the developer-portal product that grants them (an
 * app may ask only for scopes of its products; LinkedIn refuses the whole authorization otherwise):
 * "Sign In with LinkedIn using OpenID Connect" grants openid, profile, email (the member, from
 * /v2/userinfo); "Share on LinkedIn" grants w_member_social; the "Community Management API" grants
 * w_organization_social, r_organization_social, rw_organization_admin (and w_member_social).
 * An app with the first two only sets CRIER_LINKEDIN_SCOPES (index.ts) or registers its own scopes.
 */
export const MEMBER_SCOPES = ['openid', 'profile', 'email', 'w_member_social'] as const;
export const ORGANIZATION_SCOPES = ['w_organization_social', 'r_organization_social', 'rw_organization_admin'] as const;
export const LINKEDIN_SCOPES: string[] = [...MEMBER_SCOPES, ...ORGANIZATION_SCOPES];

/**
 * organizationAcls roles that may post as the organization (Posts API, w_organization_social:
 * ADMINISTRATOR, DIRECT_SPONSORED_CONTENT_POSTER, CONTENT_ADMIN; the Videos API's "company admin,
 * DSC poster, or content admin"). The content admin role's value is spelled CONTENT_ADMINISTRATOR in
 * the role lists and CONTENT_ADMIN in the Posts API's permission table: both are taken.
 */
export const POSTING_ROLES: ReadonlySet<string> = new Set(['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER', 'CONTENT_ADMINISTRATOR', 'CONTENT_ADMIN']);

/** The LinkedIn-Version every /rest/ call carries (LinkedIn serves each monthly version about a year). */
export const LINKEDIN_VERSION = '202610';

export const LINKEDIN_API_VERSION: ApiVersion = {
  carrier: 'LinkedIn-Version header (/rest/ calls)',
  version: LINKEDIN_VERSION,
  sunset: '2027-10-01',
  source: 'https://learn.microsoft.com/en-us/linkedin/marketing/versioning ("supported and stable for a minimum of one year before sunset": October 2026 + 1 year)',
};

/** At most this many organizations are offered (one API call each). */
const MAX_ORGANIZATIONS = 100;
const PAGE = 100;

/** `scopes`: what connects ask for when the app registered none (CRIER_LINKEDIN_SCOPES, else LINKEDIN_SCOPES). */
export function createLinkedInOAuth(override: string | undefined, scopes: readonly string[] = LINKEDIN_SCOPES): NetworkOAuth {
  const hosts = networkHosts({ www: 'https://www.linkedin.com', api: 'https://api.linkedin.com' }, override);
  const restHeaders = (token: string) => ({ authorization: `Bearer ${token}`, 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0' });

  const token = async (form: Record<string, string | undefined>): Promise<OAuthTokens> => {
    const res = await oauthCall('linkedin', `${hosts.www}/oauth/v2/accessToken`, { method: 'POST', headers: { 'content-type': FORM }, body: formBody(form) });
    const tokens = res.ok ? standardTokens(res.body) : undefined;
    if (tokens) return tokens;
    throw tokenError(res);
  };

  const get = (url: string, headers: Record<string, string>) => oauthCall('linkedin', url, { headers });

  /**
   * The organizations the member may post for (an approved POSTING_ROLES role), as candidates. The
   * finder's `role` takes one role, so every approved assignment is read and the roles filtered here.
   */
  const organizations = async (accessToken: string, tokens: OAuthTokens): Promise<ConnectCandidate[]> => {
    const ids: string[] = [];
    for (let start = 0; ids.length < MAX_ORGANIZATIONS; start += PAGE) {
      const res = await get(withQuery(`${hosts.api}/rest/organizationAcls`, { q: 'roleAssignee', state: 'APPROVED', start: String(start), count: String(PAGE) }), restHeaders(accessToken));
      // No Community Management access for this app or member: the member alone is offered.
      if (res.status === 403) return [];
      if (!res.ok || !Array.isArray(res.body?.elements)) throw apiError('linkedin', 'the administered organizations', res);
      for (const acl of res.body.elements) {
        if (!POSTING_ROLES.has(String(acl?.role))) continue;
        const id = /^urn:li:organization:(\d+)$/.exec(String(acl?.organization ?? ''))?.[1];
        if (id && !ids.includes(id)) ids.push(id);
      }
      if (res.body.elements.length < PAGE) break;
    }
    const candidates: ConnectCandidate[] = [];
    for (const id of ids.slice(0, MAX_ORGANIZATIONS)) {
      const res = await get(`${hosts.api}/rest/organizations/${id}`, restHeaders(accessToken));
      if (res.status === 404) continue;
      if (!res.ok) throw apiError('linkedin', `organization ${id}`, res);
      const org = res.body;
      candidates.push({
        id: `urn:li:organization:${id}`,
        type: 'organization',
        name: org?.localizedName ?? org?.vanityName ?? id,
        username: org?.vanityName ?? id,
        // logoV2 holds digital media asset URNs, not URLs: no picture without a second lookup.
        profilePictureUrl: null,
        tokens,
      });
    }
    return candidates;
  };

  return {
    network: 'linkedin',
    pkce: false,
    scopes,
    // 60-day tokens: refresh a week ahead (only accounts holding a refresh token are refreshed).
    refreshAheadSecs: 7 * 24 * 3600,
    refreshUses: 'refresh_token',
    authorizeUrl: (app, input) =>
      withQuery(`${hosts.www}/oauth/v2/authorization`, {
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: input.redirectUri,
        state: input.state,
        scope: input.scopes.join(' '),
      }),
    async connect(app, input) {
      const tokens = await token({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, client_id: app.clientId, client_secret: app.clientSecret });
      const res = await get(`${hosts.api}/v2/userinfo`, { authorization: `Bearer ${tokens.accessToken}` });
      const me = res.body;
      if (!res.ok || typeof me?.sub !== 'string' || !me.sub) throw apiError('linkedin', 'the connected member', res);
      // userinfo has no vanity name: the handle is the email's local part, else the member id.
      const handle = typeof me.email === 'string' && me.email.includes('@') ? me.email.slice(0, me.email.indexOf('@')) : me.sub;
      const member: ConnectCandidate = {
        id: `urn:li:person:${me.sub}`,
        type: 'member',
        name: me.name ?? ([me.given_name, me.family_name].filter(Boolean).join(' ') || handle),
        username: handle,
        profilePictureUrl: typeof me.picture === 'string' ? me.picture : null,
        tokens,
      };
      return { choose: true, candidates: [member, ...(await organizations(tokens.accessToken, tokens))] };
    },
    refresh: (app: OAuthApp, refreshToken: string) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: app.clientId, client_secret: app.clientSecret }),
  };
}

/**
 * LinkedIn answers a used, expired or mismatched code with invalid_request ("Unable to retrieve
 * access token: appid/redirect uri/code verifier does not match authorization code…") and a dead
 * refresh token with invalid_grant: both mean the user must connect again.
 */
function tokenError(res: OAuthResponse): OAuthError {
  const description = typeof res.body?.error_description === 'string' ? res.body.error_description : '';
  if (res.status === 400 && res.body?.error === 'invalid_request' && /authorization code|refresh token|expired|revoked/i.test(description)) {
    return new OAuthError('revoked', `linkedin: invalid_request (${description})`);
  }
  return standardTokenError('linkedin', res);
}
