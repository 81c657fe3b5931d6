// Google Business Profile: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { googleEmulator } from '../google/sandbox.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createGoogleBusinessOAuth } from './oauth.ts';
import { googleBusinessCapabilities } from './capabilities.ts';
import { options } from './options.ts';

const POSTS_API = 'https://mybusiness.googleapis.com';
const PERFORMANCE_API = 'https://businessprofileperformance.googleapis.com';

const base = baseUrlNetwork({
  id: 'google_business', label: 'Google Business Profile', options, media, oauth: createGoogleBusinessOAuth, emulator: googleEmulator,
  // Google fetches a post's photo by URL: from Crier's own media only if PUBLIC_BASE_URL is public (checked per post).
  publisher: (baseUrl, ctx) => lazyAdapter('google_business', 'the Google Business Profile adapter', async () => (await import('./adapter.ts')).createGoogleBusinessAdapter({
    apiUrl: baseUrl ?? POSTS_API,
    publicUrl: { publicBaseUrl: ctx.publicBaseUrl, realNetwork: baseUrl === undefined },
  })),
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md (summary table): 10 edits per minute per profile
  // (and 300 QPM per project).
  limits: { accountQuota: { max: 10, windowMs: 60_000, counts: 'posts' } },
});

export const googleBusiness: Network<BaseUrlSettings> = {
  ...base,
  // After publishing (capabilities.ts): no comments (reviews are the location's), no per-post figures.
  capabilities: ({ settings }) => googleBusinessCapabilities(settings.baseUrl ?? POSTS_API, settings.baseUrl ?? PERFORMANCE_API),
  // The Business Profile APIs (v1, v4 for local posts) have no dated versions.
  apiVersions: [],
};
