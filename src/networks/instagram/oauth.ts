// Instagram API with Facebook Login for Business: the Facebook login (../facebook/oauth.ts) with the
// Instagram scopes; the candidates are the Instagram professional accounts linked to the user's
// Pages (instagram_business_account on /me/accounts), each publishing with its Page's token, which
// never expires. Pages without a linked account are left out. No refresh grant exists.
import { metaHosts, metaLogin, publishablePage } from '../facebook/oauth.ts';
import type { ConnectCandidate, NetworkOAuth } from '../oauth.ts';

/**
 * Publishing and comments on the linked Instagram account, and finding it through the Pages. Direct
 * messages are asked for only when a connect requests them (`scopes: ["messaging"]`: messaging.ts).
 */
/** What a connect asking for `messaging` adds to the default scopes (Facebook Login; pages_messaging: private replies). */
export const MESSAGING_SCOPES = ['instagram_manage_messages', 'pages_manage_metadata', 'pages_messaging'] as const;

export const INSTAGRAM_SCOPES = [
  'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments',
  'pages_show_list', 'pages_read_engagement', 'business_management',
  // Engagement: figures (insights) and deleting media (capabilities.ts).
  'instagram_manage_insights', 'instagram_manage_contents',
] as const;

export function createInstagramOAuth(override: string | undefined): NetworkOAuth {
  const login = metaLogin('instagram', metaHosts(override));
  return {
    network: 'instagram',
    pkce: false,
    scopes: INSTAGRAM_SCOPES,
    refreshAheadSecs: 0,
    authorizeUrl: (app, input) => login.authorizeUrl(app, input.scopes, input),
    async connect(app, input) {
      const userToken = await login.userToken(app, input);
      const pages = await login.pages(app, userToken, 'id,name,access_token,tasks,instagram_business_account{id,username,name,profile_picture_url}');
      const candidates = new Map<string, ConnectCandidate>();
      for (const page of pages) {
        const ig = page.instagram_business_account;
        if (typeof ig?.id !== 'string' || !ig.id || candidates.has(ig.id) || !publishablePage(page)) continue;
        const username = typeof ig.username === 'string' && ig.username ? ig.username : ig.id;
        candidates.set(ig.id, {
          id: ig.id,
          type: 'business',
          name: typeof ig.name === 'string' && ig.name ? ig.name : username,
          username,
          profilePictureUrl: typeof ig.profile_picture_url === 'string' ? ig.profile_picture_url : null,
          tokens: { accessToken: page.access_token, expiresAt: null },
        });
      }
      return { choose: true, candidates: [...candidates.values()] };
    },
  };
}
