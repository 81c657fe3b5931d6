// Facebook: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork } from '../base-url.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createFacebookOAuth } from './oauth.ts';
import { options } from './options.ts';
import { facebookEmulator } from './sandbox.ts';

export const facebook = baseUrlNetwork({
  id: 'facebook', label: 'Facebook', options, media, oauth: createFacebookOAuth, emulator: facebookEmulator,
  // meta-x-linkedin-bluesky.md §4.3: Page calls fall under usage-based limits (BUC headers); only Reels
  // have a count (30 per Page per 24 h), which does not pace other posts.
  publisher: (baseUrl) => lazyAdapter('facebook', 'the Facebook adapter', async () => (await import('./adapter.ts')).createFacebookAdapter({ apiUrl: baseUrl ?? 'https://graph.facebook.com' })),
  limits: {},
});
