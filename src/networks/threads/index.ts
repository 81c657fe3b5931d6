// Threads: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork } from '../base-url.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createThreadsOAuth } from './oauth.ts';
import { options } from './options.ts';
import { threadsEmulator } from './sandbox.ts';

export const threads = baseUrlNetwork({
  id: 'threads', label: 'Threads', options, media, oauth: createThreadsOAuth, emulator: threadsEmulator,
  // Threads fetches media by URL: from Crier's own media only if PUBLIC_BASE_URL is public (checked per post).
  publisher: (baseUrl, ctx) => lazyAdapter('threads', 'the Threads adapter', async () => (await import('./adapter.ts')).createThreadsAdapter({
    apiUrl: baseUrl ?? 'https://graph.threads.net',
    publicUrl: { publicBaseUrl: ctx.publicBaseUrl, realNetwork: baseUrl === undefined },
  })),
  // meta-x-linkedin-bluesky.md §2: 250 published posts per 24 h per profile (replies,
  // later containers, have their own 1,000).
  limits: { accountQuota: { max: 250, windowMs: 24 * 3_600_000, counts: 'posts' } },
});
