// Pinterest: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlNetwork } from '../base-url.ts';
import { media } from './media.ts';
import { createPinterestOAuth } from './oauth.ts';
import { options } from './options.ts';
import { pinterestEmulator } from './sandbox.ts';

export const pinterest = baseUrlNetwork({
  id: 'pinterest', label: 'Pinterest', options, media, oauth: createPinterestOAuth, emulator: pinterestEmulator,
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §4: limits are per app (Trial 1,000 requests a day),
  // not per account.
  limits: {},
});
