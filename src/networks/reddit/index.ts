// Reddit: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createRedditOAuth } from './oauth.ts';
import { options } from './options.ts';
import { redditEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const API_URL = 'https://oauth.reddit.com';

export const reddit: Network<BaseUrlSettings> = {
  ...baseUrlNetwork({
    id: 'reddit', label: 'Reddit', options, media, oauth: createRedditOAuth, emulator: redditEmulator,
    publisher: (baseUrl) => lazyAdapter('reddit', 'the Reddit adapter', async () => (await import('./adapter.ts')).createRedditAdapter({ apiUrl: baseUrl ?? API_URL })),
    // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §6.4: 100 queries a minute per OAuth client, not per
    // account; per-subreddit throttles answer RATELIMIT with their own wait.
    limits: {},
  }),
  capabilities: ({ settings }) => lazyCapabilities('the Reddit engagement module', {
    listings: [{ path: 'subreddits/:name/flairs', summary: 'A subreddit\'s link flairs (Reddit)' }],
    remove: true, ownPosts: true, comments: { list: true, reply: true }, analytics: { post: true, account: true },
  }, async () => (await import('./capabilities.ts')).redditCapabilities(settings.baseUrl ?? API_URL)),
  // Reddit's API is not versioned.
  apiVersions: [],
};
