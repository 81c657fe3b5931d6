// Facebook: everything Crier knows of it (the contract: ../contract.ts).
import { GRAPH_API_VERSION } from '../meta/graph-version.ts';
import type { Network } from '../contract.ts';
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { networkHosts } from '../oauth.ts';
import { media } from './media.ts';
import { createFacebookOAuth } from './oauth.ts';
import { options } from './options.ts';
import { facebookEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const GRAPH_URL = 'https://graph.facebook.com';

/**
 * Where each call goes: the Graph API; a feed video's upload session on graph-video (Meta's video
 * upload guide: "Videos must be published to graph-video.facebook.com"); a Reel's or Story's bytes on
 * rupload. CRIER_FACEBOOK_BASE_URL (an emulator) replaces all three.
 */
export const facebookHosts = (baseUrl: string | undefined): { apiUrl: string; videoUrl: string; ruploadUrl: string } =>
  networkHosts({ apiUrl: GRAPH_URL, videoUrl: 'https://graph-video.facebook.com', ruploadUrl: 'https://rupload.facebook.com' }, baseUrl);

export const facebook: Network<BaseUrlSettings> = {
  ...baseUrlNetwork({
    id: 'facebook', label: 'Facebook', options, media, oauth: createFacebookOAuth, emulator: facebookEmulator,
    loginConfiguration: 'a Facebook Login for Business configuration id (Business apps)',
    // meta-x-linkedin-bluesky.md §4.3: Page calls fall under usage-based limits (BUC headers); only Reels
    // have a count (30 per Page per 24 h), which does not pace other posts.
    publisher: (baseUrl) => lazyAdapter('facebook', 'the Facebook adapter', async () => (await import('./adapter.ts')).createFacebookAdapter(facebookHosts(baseUrl))),
    limits: {},
  }),
  // Deleting, own posts, comments and figures (capabilities.ts); baseUrlNetwork assembles no capabilities.
  capabilities: ({ settings }) => lazyCapabilities('the Facebook engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true, legacy: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).facebookCapabilities(settings.baseUrl ?? GRAPH_URL)),
  apiVersions: [GRAPH_API_VERSION],
};
