// Threads: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createThreadsOAuth } from './oauth.ts';
import { options } from './options.ts';
import { threadsEmulator } from './sandbox.ts';
import { threadsInbound } from './inbound.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const API_URL = 'https://graph.threads.net';

const base = baseUrlNetwork({
  id: 'threads', label: 'Threads', options, media, oauth: createThreadsOAuth, emulator: threadsEmulator,
  // Threads fetches media by URL: from Crier's own media only if PUBLIC_BASE_URL is public (checked per post).
  publisher: (baseUrl, ctx) => lazyAdapter('threads', 'the Threads adapter', async () => (await import('./adapter.ts')).createThreadsAdapter({
    apiUrl: baseUrl ?? API_URL,
    publicUrl: { publicBaseUrl: ctx.publicBaseUrl, realNetwork: baseUrl === undefined },
  })),
  // meta-x-linkedin-bluesky.md §2: 250 published posts per 24 h per profile (replies,
  // later containers, have their own 1,000).
  limits: { accountQuota: { max: 250, windowMs: 24 * 3_600_000, counts: 'posts' } },
});

export const threads: Network<BaseUrlSettings> = {
  ...base,
  // Deleting, imports, replies, insights and the replies webhook (baseUrlNetwork assembles no capabilities).
  capabilities: ({ settings }) => lazyCapabilities('the Threads engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).threadsCapabilities(settings.baseUrl ?? API_URL), { inbound: threadsInbound }),
  // Threads' v1.0 path has no documented end (developers.facebook.com/docs/threads/changelog lists none).
  apiVersions: [],
};
