// Facebook: everything Crier knows of it (the contract: ../contract.ts).
import type { Network } from '../contract.ts';
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createFacebookOAuth } from './oauth.ts';
import { options } from './options.ts';
import { facebookEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const GRAPH_URL = 'https://graph.facebook.com';

export const facebook: Network<BaseUrlSettings> = {
  ...baseUrlNetwork({
    id: 'facebook', label: 'Facebook', options, media, oauth: createFacebookOAuth, emulator: facebookEmulator,
    // meta-x-linkedin-bluesky.md §4.3: Page calls fall under usage-based limits (BUC headers); only Reels
    // have a count (30 per Page per 24 h), which does not pace other posts.
    publisher: (baseUrl) => lazyAdapter('facebook', 'the Facebook adapter', async () => (await import('./adapter.ts')).createFacebookAdapter({ apiUrl: baseUrl ?? GRAPH_URL })),
    limits: {},
  }),
  // Deleting, own posts, comments and figures (engagement.ts); baseUrlNetwork assembles no capabilities.
  capabilities: ({ settings }) => lazyCapabilities('the Facebook engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true, legacy: true }, analytics: { post: true, account: true } },
    async () => (await import('./engagement.ts')).facebookCapabilities(settings.baseUrl ?? GRAPH_URL)),
};
