// YouTube: everything Crier knows of it (the contract: ../contract.ts). Its settings (settings.ts)
// add the upload chunk size and the managed-key daily pool to the base URL every network reads.
import { baseUrlNetwork } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { googleEmulator } from '../google/sandbox.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createYoutubeOAuth } from './oauth.ts';
import { options } from './options.ts';
import { poolUsage } from './pool.ts';
import { config, type YoutubeSettings } from './settings.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const base = baseUrlNetwork({
  id: 'youtube', label: 'YouTube', options, media, oauth: createYoutubeOAuth, emulator: googleEmulator,
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §1.6: quota belongs to the Cloud project, shared by
  // every account (the managed-key pool, pool.ts); the per-channel upload caps are unpublished.
  limits: {},
});

export const youtube: Network<YoutubeSettings> = {
  ...base,
  config,
  publisher: ({ settings }) => lazyAdapter('youtube', 'the YouTube adapter', async () => (await import('./adapter.ts')).createYoutubeAdapter({ apiUrl: settings.baseUrl ?? 'https://www.googleapis.com', settings })),
  usage: ({ settings }, ledger, orgId) => poolUsage(settings.pool, ledger, orgId),
  // Engagement (capabilities.ts): delete, own videos, comments one tier deep, video and channel figures.
  capabilities: ({ settings }) => lazyCapabilities('the YouTube engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).youtubeCapabilities(settings.baseUrl ?? 'https://www.googleapis.com', settings.pool)),
  // YouTube Data API v3 has no dated versions.
  apiVersions: [],
};
