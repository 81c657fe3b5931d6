// Reddit: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { redditEmulator } from './sandbox.ts';
import { media } from './media.ts';
import { createRedditOAuth } from './oauth.ts';
import { options } from './options.ts';

export const reddit: Network<BaseUrlSettings> = {
  id: 'reddit',
  label: 'Reddit',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createRedditOAuth(settings.baseUrl) },
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §6.4: 100 queries a minute per OAuth client, not per
  // account; per-subreddit throttles answer RATELIMIT with their own wait.
  limits: {},
  config: baseUrlConfig('reddit'),
  sandbox: baseUrlSandbox('reddit', redditEmulator),
};
