// Google Business Profile: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork } from '../base-url.ts';
import { googleEmulator } from '../google/sandbox.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createGoogleBusinessOAuth } from './oauth.ts';
import { options } from './options.ts';

export const googleBusiness = baseUrlNetwork({
  id: 'google_business', label: 'Google Business Profile', options, media, oauth: createGoogleBusinessOAuth, emulator: googleEmulator,
  // Google fetches a post's photo by URL: from Crier's own media only if PUBLIC_BASE_URL is public (checked per post).
  publisher: (baseUrl, ctx) => lazyAdapter('google_business', 'the Google Business Profile adapter', async () => (await import('./adapter.ts')).createGoogleBusinessAdapter({
    apiUrl: baseUrl ?? 'https://mybusiness.googleapis.com',
    publicUrl: { publicBaseUrl: ctx.publicBaseUrl, realNetwork: baseUrl === undefined },
  })),
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md (summary table): 10 edits per minute per profile
  // (and 300 QPM per project).
  limits: { accountQuota: { max: 10, windowMs: 60_000, counts: 'posts' } },
});
