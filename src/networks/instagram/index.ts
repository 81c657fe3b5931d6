// Instagram: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork } from '../base-url.ts';
import { facebookEmulator } from '../facebook/sandbox.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createInstagramOAuth } from './oauth.ts';
import { options } from './options.ts';

export const instagram = baseUrlNetwork({
  id: 'instagram', label: 'Instagram', options, media, oauth: createInstagramOAuth, emulator: facebookEmulator,
  // Instagram downloads media from the URLs it is given: from Crier's PUBLIC_BASE_URL for Crier's own.
  publisher: (baseUrl, ctx) => lazyAdapter('instagram', 'the Instagram adapter', async () => (await import('./adapter.ts')).createInstagramAdapter({
    apiUrl: baseUrl ?? 'https://graph.facebook.com',
    publicUrl: { publicBaseUrl: ctx.publicBaseUrl, realNetwork: baseUrl === undefined },
  })),
  // meta-x-linkedin-bluesky.md §3: media_publish allows 50 posts per 24 h (the account's
  // content_publishing_limit is what to trust: the adapter reads it before creating containers).
  limits: { accountQuota: { max: 50, windowMs: 24 * 3_600_000, counts: 'posts' } },
});
