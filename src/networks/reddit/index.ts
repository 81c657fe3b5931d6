// Reddit: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork } from '../base-url.ts';
import { createRedditAdapter } from './adapter.ts';
import { media } from './media.ts';
import { createRedditOAuth } from './oauth.ts';
import { options } from './options.ts';
import { redditEmulator } from './sandbox.ts';

export const reddit = baseUrlNetwork({
  id: 'reddit', label: 'Reddit', options, media, oauth: createRedditOAuth, emulator: redditEmulator,
  publisher: (baseUrl) => createRedditAdapter({ apiUrl: baseUrl ?? 'https://oauth.reddit.com' }),
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §6.4: 100 queries a minute per OAuth client, not per
  // account; per-subreddit throttles answer RATELIMIT with their own wait.
  limits: {},
});
