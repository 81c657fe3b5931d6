// Google Business Profile connects through Google's OAuth (src/networks/google/oauth.ts) with the
// business.manage scope; one login reaches every location of every business account the user
// manages, so the user always picks (a pending session). A candidate's id is
// "accounts/{a}/locations/{l}": posting (v4 localPosts) needs both ids.
import { createGoogleOAuth, googleApiError } from '../google/oauth.ts';
import { networkHosts, OAuthError, oauthCall, type ConnectCandidate, type NetworkOAuth, type OAuthTokens } from '../oauth.ts';

export const GOOGLE_BUSINESS_SCOPES = ['https://www.googleapis.com/auth/business.manage'] as const;

/** Pages followed per listing before giving up (100 locations a page). */
const MAX_PAGES = 50;
const ACCOUNT_NAME = /^accounts\/[^/]+$/;
const LOCATION_NAME = /^locations\/[^/]+$/;

export function createGoogleBusinessOAuth(override: string | undefined): NetworkOAuth {
  const hosts = networkHosts({
    accounts: 'https://mybusinessaccountmanagement.googleapis.com',
    info: 'https://mybusinessbusinessinformation.googleapis.com',
  }, override);

  /** Every item of a paged Google list (`nextPageToken`); an empty list comes as `{}`. */
  const listAll = async (what: string, url: string, field: string, tokens: OAuthTokens): Promise<any[]> => {
    const items: any[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const pageUrl = new URL(url);
      if (pageToken) pageUrl.searchParams.set('pageToken', pageToken);
      const res = await oauthCall('google_business', pageUrl.toString(), { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      if (!res.ok) throw googleApiError('google_business', what, res);
      if (Array.isArray(res.body?.[field])) items.push(...res.body[field]);
      pageToken = typeof res.body?.nextPageToken === 'string' && res.body.nextPageToken ? res.body.nextPageToken : undefined;
      if (!pageToken) return items;
    }
    throw new OAuthError('transient', `google_business: more than ${MAX_PAGES} pages of ${what}`);
  };

  return createGoogleOAuth({
    network: 'google_business',
    scopes: GOOGLE_BUSINESS_SCOPES,
    requiredScopes: GOOGLE_BUSINESS_SCOPES,
    scopeHint: 'manage your Business Profile',
    override,
    async login({ tokens }) {
      const accounts = await listAll('the business accounts', `${hosts.accounts}/v1/accounts`, 'accounts', tokens);
      const candidates: ConnectCandidate[] = [];
      const seen = new Set<string>();
      for (const account of accounts) {
        if (typeof account?.name !== 'string' || !ACCOUNT_NAME.test(account.name)) continue;
        const url = `${hosts.info}/v1/${account.name}/locations?readMask=name,title,storefrontAddress&pageSize=100`;
        for (const location of await listAll(`the locations of ${account.name}`, url, 'locations', tokens)) {
          if (typeof location?.name !== 'string' || !LOCATION_NAME.test(location.name)) continue;
          // An organization account lists its groups' locations too: each location is offered once,
          // under the first account that lists it.
          if (seen.has(location.name)) continue;
          seen.add(location.name);
          const id = `${account.name}/${location.name}`;
          const title = typeof location.title === 'string' && location.title ? location.title : location.name.slice('locations/'.length);
          candidates.push({ id, type: 'location', name: title, username: title, profilePictureUrl: null, tokens });
        }
      }
      return { choose: true, candidates };
    },
  });
}
