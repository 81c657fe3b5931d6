// Facebook Login for Pages: the login dialog, the code exchange for a short-lived user token, the
// fb_exchange_token grant for the long-lived (~60 days) one, then GET /me/accounts, whose Page
// tokens (taken from the long-lived user token) never expire. Each Page is a candidate with its own
// token; the user picks. No refresh grant exists: a dead Page token (error 190) means reconnecting.
// Instagram with Facebook Login (../instagram/oauth.ts) is the same login with other scopes and fields.
import { createHmac } from 'node:crypto';
import { networkHosts, OAuthError, oauthCall, withQuery, type ConnectCandidate, type NetworkOAuth, type OAuthApp, type OAuthErrorKind, type OAuthResponse } from '../oauth.ts';
import type { NetworkId } from '../../core/network-id.ts';
import { GRAPH_VERSION } from '../meta/graph-version.ts';

/** Publishing (posts, photos, videos, reels, stories), reading and answering comments. */
export const FACEBOOK_SCOPES = [
  'pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement',
  'pages_read_user_content', 'read_insights', 'publish_video', 'business_management',
] as const;

/** Meta's throttling codes (app, user, Page, custom), "service unavailable" and the BUC range. */
const THROTTLED = new Set([2, 4, 17, 32, 341, 613]);
/** Following paging.next stops here: 100 per page, far beyond the Pages one user manages. */
const MAX_PAGES = 50;

export interface MetaHosts {
  www: string;
  graph: string;
}

export const metaHosts = (override: string | undefined): MetaHosts =>
  networkHosts({ www: 'https://www.facebook.com', graph: 'https://graph.facebook.com' }, override);

/**
 * A Graph error body ({"error":{"message","type","code","error_subcode"}}) as an OAuthError: a dead
 * token (190) or a refused code is `revoked`; refused app credentials (101, or 1 "Error validating
 * client secret") are `client`; throttling, 5xx and anything unknown are `transient`. `grant`: the
 * call redeemed a code or a token, whose #100 errors mean that grant is bad.
 */
export function metaError(network: NetworkId, what: string, res: OAuthResponse, grant = false): OAuthError {
  const error = res.body?.error;
  const code = typeof error?.code === 'number' ? error.code : undefined;
  const message = typeof error?.message === 'string' ? error.message : undefined;
  const detail = `${network}: could not ${what} (${code !== undefined ? `#${code}${error.error_subcode ? `/${error.error_subcode}` : ''} ` : ''}${message ?? `HTTP ${res.status}`})`;
  let kind: OAuthErrorKind = 'transient';
  if (code === 101 || (code === 1 && /client secret|application/i.test(message ?? ''))) kind = 'client';
  else if (code !== undefined && (THROTTLED.has(code) || (code >= 80000 && code <= 80014))) kind = 'transient';
  else if (code === 190 || code === 102) kind = 'revoked';
  // Permissions the user did not grant (#10, #200-#299): only a new login with them helps.
  else if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) kind = 'revoked';
  else if (grant && code === 100) kind = 'revoked';
  else if (code === undefined && (res.status === 401 || res.status === 403)) kind = 'revoked';
  return new OAuthError(kind, detail);
}

/** The Graph calls of a Facebook Login, shared by facebook and instagram. */
export function metaLogin(network: NetworkId, hosts: MetaHosts) {
  const graph = `${hosts.graph}/${GRAPH_VERSION}`;

  const token = async (what: string, params: Record<string, string>): Promise<string> => {
    const res = await oauthCall(network, withQuery(`${graph}/oauth/access_token`, params));
    const accessToken = res.body?.access_token;
    if (res.ok && typeof accessToken === 'string' && accessToken) return accessToken;
    if (res.ok) throw new OAuthError('transient', `${network}: ${what} answered without access_token`);
    throw metaError(network, what, res, true);
  };

  return {
    // Facebook Login for Business: an app's saved configuration names the permissions, in place of
    // `scope` (developers.facebook.com/docs/facebook-login/facebook-login-for-business).
    authorizeUrl: (app: OAuthApp, scopes: readonly string[], input: { redirectUri: string; state: string }) =>
      withQuery(`${hosts.www}/${GRAPH_VERSION}/dialog/oauth`, {
        client_id: app.clientId,
        redirect_uri: input.redirectUri,
        state: input.state,
        ...(app.loginConfigId ? { config_id: app.loginConfigId } : { scope: scopes.join(',') }),
        response_type: 'code',
      }),

    /** Code → short-lived user token → long-lived user token (whose Page tokens never expire). */
    async userToken(app: OAuthApp, input: { code: string; redirectUri: string }): Promise<string> {
      // Meta appends "#_" to its redirect; a browser drops the fragment, a copied URL may keep it.
      const code = input.code.replace(/#_$/, '');
      const short = await token('exchange the code', { client_id: app.clientId, redirect_uri: input.redirectUri, client_secret: app.clientSecret, code });
      return token('get a long-lived token', { grant_type: 'fb_exchange_token', client_id: app.clientId, client_secret: app.clientSecret, fb_exchange_token: short });
    },

    /** Every Page of GET /me/accounts with these fields, following paging.next on the Graph host only. */
    async pages(app: OAuthApp, userToken: string, fields: string): Promise<any[]> {
      // appsecret_proof lets the app require it ("Require App Secret") without breaking the connect.
      const proof = createHmac('sha256', app.clientSecret).update(userToken).digest('hex');
      let url: string | undefined = withQuery(`${graph}/me/accounts`, { fields, limit: '100', appsecret_proof: proof });
      const pages: any[] = [];
      for (let n = 0; url && n < MAX_PAGES; n++) {
        const res = await oauthCall(network, url, { headers: { authorization: `Bearer ${userToken}` } });
        if (!res.ok || !Array.isArray(res.body?.data)) throw metaError(network, 'list the Pages', res);
        pages.push(...res.body.data.filter((p: any) => p && typeof p.id === 'string' && p.id));
        const next: unknown = res.body.paging?.next;
        url = typeof next === 'string' && sameOrigin(next, hosts.graph) ? nextPage(next, proof) : undefined;
      }
      return pages;
    },
  };
}

/** paging.next carries the token in its query: it goes in the header instead, as on the first call. */
function nextPage(next: string, proof: string): string {
  const url = new URL(next);
  url.searchParams.delete('access_token');
  url.searchParams.set('appsecret_proof', proof);
  return url.toString();
}

function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

/** A Page the user can publish to: it came with a Page token and (when tasks are listed) CREATE_CONTENT. */
export function publishablePage(page: any): boolean {
  if (typeof page.access_token !== 'string' || !page.access_token) return false;
  return !Array.isArray(page.tasks) || page.tasks.includes('CREATE_CONTENT');
}

export function createFacebookOAuth(override: string | undefined): NetworkOAuth {
  const login = metaLogin('facebook', metaHosts(override));
  return {
    network: 'facebook',
    pkce: false,
    scopes: FACEBOOK_SCOPES,
    // Page tokens do not expire and there is no refresh grant.
    refreshAheadSecs: 0,
    authorizeUrl: (app, input) => login.authorizeUrl(app, input.scopes, input),
    async connect(app, input) {
      const userToken = await login.userToken(app, input);
      const pages = await login.pages(app, userToken, 'id,name,username,access_token,picture{url},tasks');
      const candidates: ConnectCandidate[] = pages.filter(publishablePage).map((page) => ({
        id: page.id,
        type: 'page',
        name: typeof page.name === 'string' && page.name ? page.name : page.id,
        username: typeof page.username === 'string' && page.username ? page.username : page.id,
        profilePictureUrl: typeof page.picture?.data?.url === 'string' ? page.picture.data.url : null,
        tokens: { accessToken: page.access_token, expiresAt: null },
      }));
      return { choose: true, candidates };
    },
  };
}
